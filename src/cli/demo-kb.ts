// The demo's knowledge base steps, against the emulated service at `{emulator}/kb`: the settings that point the
// commands at it, and the questions file of the small evaluation, written from the emulator's truth (each
// question with the source it was written from and the text its answer must contain), so `kb eval` measures
// the emulated retrieval against what is known to be right.
import { writeFileSync } from 'node:fs';
import { kbKeys, kbQuestions } from '../emulator/kb/kb-truth.js';
import type { RunningEmulator } from '../emulator/server.js';

/** How many questions the demo's evaluation asks. */
export const DEMO_KB_QUESTIONS = 12;

/** The environment of the kb commands against the emulator (its project and administrative keys). */
export function demoKbEnv(running: RunningEmulator): Record<string, string> {
  const keys = kbKeys(running.emulator);
  return {
    REPORTER_KB_BASE_URL: `${running.url}${keys.basePath}`,
    REPORTER_KB_KEY: keys.projectKey,
    REPORTER_KB_ADMIN_KEY: keys.adminKey,
  };
}

function csvCell(text: string): string {
  return /[",\n|;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes the evaluation's questions (CSV, docs/kb-eval.md) to `path`; returns how many. */
export function writeDemoKbQuestions(running: RunningEmulator, path: string): number {
  const questions = kbQuestions(running.emulator).slice(0, DEMO_KB_QUESTIONS);
  const lines = [
    'question,expected_sources,expected_answer_contains',
    ...questions.map((q) =>
      [q.question, q.sourceName, q.expectedAnswerContains].map((cell) => csvCell(cell)).join(','),
    ),
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return questions.length;
}

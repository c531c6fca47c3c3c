// Test helper: reads printed pages back from a PDF with poppler (`pdftotext -bbox`, `pdfinfo`, `pdfimages`)
// as word boxes, and finds what a reader would see wrong on them: two words printed over each other, a word
// set smaller than it may be. Also prints an HTML page to PDF in a headless Chromium tab. Used by the print tests
// (test/report/printed-reports.test.ts) and nothing else.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { ChromiumBrowser } from './chromium.js';

const run = promisify(execFile);

/** pdftotext is installed (Debian package poppler-utils). */
export const POPPLER = ['/usr/bin/pdftotext', '/usr/local/bin/pdftotext'].some((p) => existsSync(p));

export interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface Page {
  width: number;
  height: number;
  words: Word[];
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);
}

/** Every page of a PDF with its words' boxes, in points from the page's top left. */
export async function pdfPages(pdf: string): Promise<Page[]> {
  const { stdout } = await run('pdftotext', ['-bbox', pdf, '-'], { maxBuffer: 512 * 1024 * 1024 });
  return stdout
    .split('<page ')
    .slice(1)
    .map((page) => {
      const size = /width="([\d.]+)" height="([\d.]+)"/.exec(page);
      const words = [
        ...page.matchAll(
          /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
        ),
      ].map((m) => ({
        text: unescapeXml(m[5]!),
        xMin: Number(m[1]),
        yMin: Number(m[2]),
        xMax: Number(m[3]),
        yMax: Number(m[4]),
      }));
      return { width: Number(size?.[1]), height: Number(size?.[2]), words };
    });
}

export async function pageCount(pdf: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [pdf]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** The images drawn on page `page` (1-based). */
export async function imagesOnPage(pdf: string, page: number): Promise<number> {
  const { stdout } = await run('pdfimages', ['-list', '-f', String(page), '-l', String(page), pdf]);
  return stdout.split('\n').filter((line) => /^\s*\d+\s+\d+\s+image/.test(line)).length;
}

/**
 * Pairs of words printed over each other: their boxes share more than a sliver in both directions (a box is
 * its font's ascent to descent, so the lines of one wrapped paragraph touch by a point or two: they are
 * allowed up to 35 % of the smaller box's height).
 */
export function overlappingWords(words: readonly Word[]): [Word, Word][] {
  const sorted = [...words].sort((a, b) => a.yMin - b.yMin);
  const found: [Word, Word][] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length; j += 1) {
      const b = sorted[j]!;
      if (b.yMin >= a.yMax) break;
      const dy = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin);
      const dx = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
      const smaller = Math.min(a.yMax - a.yMin, b.yMax - b.yMin);
      if (dx > 0.5 && dy > 0.35 * smaller) found.push([a, b]);
    }
  }
  return found;
}

/** A page's text as read: its words joined by single spaces, in pdftotext's reading order. */
export function pageText(page: Page): string {
  return page.words.map((w) => w.text).join(' ');
}

/** Prints an HTML file to PDF as a reader's browser does (A4 from the page's own @page rule, no header or footer). */
export async function printHtml(browser: ChromiumBrowser, html: string, pdf: string): Promise<void> {
  const tab = await browser.open(pathToFileURL(html).href);
  try {
    await tab.printToPdf(pdf);
  } finally {
    await tab.close();
  }
}

// Headless Chromium for the HTML report tests: where it is (skipped off CI when missing; .ci/run installs
// it), and one browser for a test file's pages, driven over the DevTools protocol through a pipe (a browser
// starts in a second or two of CPU: one per file, not one per page). Each page opens in a tab of its own with
// a throwaway profile, and is read or printed as a reader's browser does; close() ends the browser.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { connectDevtoolsPipe, type DevtoolsPipe } from './devtools-pipe.js';

/** The Chromium binary, or undefined when it is not installed (under CI: an error, it must be there). */
export function findChromium(): string | undefined {
  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (!chromium && process.env['CI']) throw new Error('chromium is missing under CI (.ci/run installs it)');
  return chromium;
}

export const CHROMIUM_MISSING =
  'chromium is not installed (apt-get install chromium); .ci/run installs it under CI';

/** A command that takes longer than this ends the browser; a page that takes longer to load fails to open. */
const TIMEOUT_MS = 120_000;

export interface ChromiumTab {
  /** The value of a JavaScript expression evaluated in the page (its main frame). */
  evaluate(expression: string): Promise<unknown>;
  /** Prints the page as --print-to-pdf --no-pdf-header-footer did: the page's own @page size, backgrounds. */
  printToPdf(pdf: string): Promise<void>;
  /** A PNG of the window, as --screenshot did. */
  screenshot(png: string): Promise<void>;
  close(): Promise<void>;
}

export interface ChromiumBrowser {
  /** Opens `url` in a new tab with a window of `window` CSS px (1 px a pixel) and waits for its load event. */
  open(url: string, window?: { width: number; height: number }): Promise<ChromiumTab>;
  close(): Promise<void>;
}

/** Starts headless Chromium (`args` added to the usual flags) with a fresh profile. */
export function launchChromium(chromium: string, args: readonly string[] = []): ChromiumBrowser {
  const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-chromium-'));
  const child = spawn(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--remote-debugging-pipe',
      ...args,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    said = (said + chunk.toString('utf8')).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const pipe = connectDevtoolsPipe(child.stdio[3] as Writable, child.stdio[4] as Readable, {
    commandTimeoutMs: TIMEOUT_MS,
    onTimeout: () => child.kill('SIGKILL'),
  });
  child.once('exit', (code, signal) =>
    pipe.fail(new Error(`chromium exited (${signal ?? code}); it said: ${said.trim() || 'nothing'}`)),
  );
  child.once('error', (error) => pipe.fail(error));
  return {
    open: (url, window) => openTab(pipe, url, window),
    async close() {
      await closeBrowser(pipe, child, exited);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function closeBrowser(pipe: DevtoolsPipe, child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  // Browser.close lets Chromium end its own renderers; a browser that does not answer is killed
  await pipe.send('Browser.close').catch(() => child.kill('SIGKILL'));
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

async function openTab(
  pipe: DevtoolsPipe,
  url: string,
  window: { width: number; height: number } | undefined,
): Promise<ChromiumTab> {
  const { targetId } = await pipe.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = (await pipe.send('Target.attachToTarget', { targetId, flatten: true })) as {
    sessionId: string;
  };
  const send = (method: string, params?: Record<string, unknown>) => pipe.send(method, params, sessionId);
  await send('Page.enable');
  await send('Page.setLifecycleEventsEnabled', { enabled: true });
  if (window)
    await send('Emulation.setDeviceMetricsOverride', { ...window, deviceScaleFactor: 1, mobile: false });
  await loadPage(pipe, sessionId, url);
  return {
    async evaluate(expression) {
      const r = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      if (r['exceptionDetails']) throw new Error(`${expression}: ${JSON.stringify(r['exceptionDetails'])}`);
      return (r['result'] as { value?: unknown }).value;
    },
    async printToPdf(pdf) {
      const r = await send('Page.printToPDF', {
        printBackground: true,
        preferCSSPageSize: true,
        displayHeaderFooter: false,
      });
      writeFileSync(pdf, Buffer.from(r['data'] as string, 'base64'));
    },
    async screenshot(png) {
      const r = await send('Page.captureScreenshot', { format: 'png' });
      writeFileSync(png, Buffer.from(r['data'] as string, 'base64'));
    },
    async close() {
      await pipe.send('Target.closeTarget', { targetId });
    },
  };
}

/** Navigates the tab to `url` and waits for that document's load event (its frames loaded too). */
async function loadPage(pipe: DevtoolsPipe, sessionId: string, url: string): Promise<void> {
  // the load events seen, by the document (loader) they belong to: the answer to Page.navigate names ours,
  // and its load may come before that answer
  const loads = new Set<string>();
  let wanted: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stop = () => {};
  const loaded = new Promise<void>((resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`chromium: ${url} did not load in ${TIMEOUT_MS} ms`)),
      TIMEOUT_MS,
    );
    stop = pipe.listen((e) => {
      if (e.sessionId !== sessionId || e.method !== 'Page.lifecycleEvent' || e.params['name'] !== 'load')
        return;
      loads.add(String(e.params['loaderId']));
      if (wanted !== undefined && loads.has(wanted)) resolve();
    });
  });
  try {
    const navigated = await pipe.send('Page.navigate', { url }, sessionId);
    if (navigated['errorText']) throw new Error(`chromium could not open ${url}: ${navigated['errorText']}`);
    wanted = String(navigated['loaderId']);
    if (!loads.has(wanted)) await Promise.race([loaded, pipe.gone]);
  } finally {
    stop();
    clearTimeout(timer);
  }
}

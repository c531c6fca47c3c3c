// Downloads a completed report's file (the task's fileUrl) to a local path, with the auth rules of the
// generation: v1 sends the bearer token, legacy sends nothing extra (the token is already in the URL path).
// Invariants: the token goes only to REPORTER_BASE_URL's origin; neither the URL nor the token appears in an
// error or a log line; 429/5xx/network faults are retried; 410 (expired link) is its own error code.
import { constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { EtlError } from '../errors.js';
import { type Logger, silentLogger } from '../log.js';
import type { Generation } from '../platform/reporter/reporter-http.js';
import { redactSecrets } from '../secrets/redact-secrets.js';

/** Write, create or empty: never through a link at the file's name (ELOOP instead). */
const NO_FOLLOW_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

export interface DownloadOptions {
  url: string;
  baseUrl: string;
  api: Generation;
  token: string;
  /** The local file to write (a temporary name: the caller renames it into place). */
  path: string;
  /** What is downloaded, in the user's words (never the URL). */
  what: string;
  timeoutMs: number;
  retries: number;
  backoffBaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  log?: Logger;
}

/** The file URL answered 410: the link expired, the report must be requested again. */
export const URL_EXPIRED = 'platform_report.url_expired';

const RETRYABLE = new Set([429, 500, 502, 503, 504]);

export async function downloadReportFile(o: DownloadOptions): Promise<{ bytes: number }> {
  const secrets = [o.token];
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new EtlError(
      'platform_report.bad_answer',
      `${o.what}: the platform gave a file URL that is not absolute`,
    );
  }
  const base = new URL(o.baseUrl);
  if (url.origin !== base.origin)
    throw new EtlError(
      'platform_report.foreign_url',
      `${o.what}: the file URL is on ${url.host}, not on the host of REPORTER_BASE_URL (${base.host}); the token is sent only to REPORTER_BASE_URL`,
    );
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const log = o.log ?? silentLogger();
  const headers: Record<string, string> = {};
  if (o.api === 'v1') headers['authorization'] = `Bearer ${o.token}`;
  let lastReason = '';
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (attempt > 0) {
      const wait = Math.min(30_000, (o.backoffBaseMs ?? 500) * 2 ** (attempt - 1));
      log.warn({ what: o.what, attempt, waitMs: wait, reason: lastReason }, 'retrying report download');
      await sleep(wait);
    }
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: 'GET',
        headers,
        headersTimeout: o.timeoutMs,
        bodyTimeout: o.timeoutMs,
      });
    } catch (error) {
      lastReason = `connection failed (${(error as { code?: string }).code ?? (error as Error).name})`;
      continue;
    }
    const status = response.statusCode;
    if (status !== 200) {
      const text = redactSecrets(await response.body.text().catch(() => ''), secrets);
      let detail = '';
      try {
        const dto = JSON.parse(text) as { message?: unknown };
        if (typeof dto.message === 'string') detail = `: ${dto.message}`;
      } catch {}
      if (RETRYABLE.has(status)) {
        lastReason = `answered ${status}${detail}`;
        continue;
      }
      if (status === 410)
        throw new EtlError(URL_EXPIRED, `${o.what}: the file link has expired (410)${detail}`);
      if (status === 401 || status === 403)
        throw new EtlError(
          'reporter.auth',
          `${o.what}: the platform refused REPORTER_TOKEN with ${status} on the file download${detail}`,
        );
      throw new EtlError(
        'platform_report.download_failed',
        `${o.what}: the download answered ${status}${detail}`,
      );
    }
    let bytes = 0;
    try {
      // a link planted at the temporary name is not written through (its name is predictable); opened
      // before the body flows (a 'data' listener starts it: chunks before the pipe would be lost)
      const file = await open(o.path, NO_FOLLOW_WRITE, 0o644);
      response.body.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      await pipeline(response.body, file.createWriteStream());
      return { bytes };
    } catch (error) {
      await response.body.dump().catch(() => {});
      await rm(o.path, { force: true }).catch(() => {});
      lastReason = `the transfer broke off (${(error as { code?: string }).code ?? (error as Error).name})`;
    }
  }
  throw new EtlError(
    'platform_report.download_failed',
    `${o.what}: the download failed after ${o.retries + 1} attempts: ${redactSecrets(lastReason, secrets)}`,
    { kind: 'transient' },
  );
}

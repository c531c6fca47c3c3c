// The streamed workbook's zip writer, read back by readers that share no code with it: Info-ZIP's `unzip -t`
// (every entry's CRC checked; skipped where unzip is not installed) and JSZip (exceljs's own reader, CRCs
// checked): whole and streamed parts, UTF-8 names and text, an empty part, the zip64 form; backpressure holds
// the bytes in flight to the deflate's high-water mark while the file takes nothing.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipWriter, type ZipWriterOptions } from '../../src/report/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const UNZIP = ['/usr/bin/unzip', '/usr/local/bin/unzip'].find((p) => existsSync(p));

/** A text of `n` lines, each different, with two- to four-byte UTF-8 characters among the ASCII. */
function sampleText(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i += 1)
    lines.push(`<row r="${i}">Привет, ${i * 7919} & ☕ 😀 ${'x'.repeat(i % 13)}</row>`);
  return lines.join('\n');
}

/** What the test writes: two whole parts, a part streamed in pieces, an empty streamed part. */
const WHOLE = {
  'a/small.xml': '<?xml version="1.0"?><a>é</a>',
  'b/données.bin': Buffer.from([0, 1, 2, 255]),
};
const STREAMED = sampleText(60_000); // ~4 MB
const PIECE_CHARS = 100_000;

async function writeSample(path: string, options: ZipWriterOptions = {}): Promise<void> {
  const zip = new ZipWriter(createWriteStream(path), options);
  zip.addFile('a/small.xml', WHOLE['a/small.xml']);
  const entry = zip.openEntry('/xl/worksheets/sheet1.xml');
  for (let at = 0; at < STREAMED.length; at += PIECE_CHARS) {
    entry.write(STREAMED.slice(at, at + PIECE_CHARS));
    await entry.ready();
  }
  await entry.close();
  await zip.openEntry('empty.xml').close();
  zip.addFile('b/données.bin', WHOLE['b/données.bin']);
  await zip.finish();
}

async function expectReadBack(path: string): Promise<void> {
  if (UNZIP) {
    const said = execFileSync(UNZIP, ['-t', path], { encoding: 'utf8' });
    expect(said).toMatch(/No errors detected/);
  }
  const zip = await JSZip.loadAsync(readFileSync(path), { checkCRC32: true });
  expect(Object.keys(zip.files)).toEqual([
    'a/small.xml',
    'xl/worksheets/sheet1.xml',
    'empty.xml',
    'b/données.bin',
  ]);
  expect(await zip.file('a/small.xml')!.async('string')).toBe(WHOLE['a/small.xml']);
  expect(await zip.file('xl/worksheets/sheet1.xml')!.async('string')).toBe(STREAMED);
  expect(await zip.file('empty.xml')!.async('string')).toBe('');
  expect(Buffer.from(await zip.file('b/données.bin')!.async('uint8array'))).toEqual(WHOLE['b/données.bin']);
}

describe('ZipWriter', () => {
  it('writes whole and streamed parts that independent readers read back exactly, CRCs checked', async () => {
    const path = join(dir, 'plain.zip');
    await writeSample(path);
    await expectReadBack(path);
    // deflated: the streamed text shrinks
    expect(readFileSync(path).length).toBeLessThan(Buffer.byteLength(STREAMED) / 3);
    // no zip64 record where nothing needs one
    expect(readFileSync(path).includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(false);
  });

  it('writes the zip64 form (sizes, offsets and the end record) that the readers read back the same', async () => {
    const path = join(dir, 'zip64.zip');
    await writeSample(path, { zip64Above: 0 });
    const bytes = readFileSync(path);
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true); // zip64 end of central directory
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true); // its locator
    await expectReadBack(path);
  });

  it('waits while the file takes nothing: the bytes in flight stay under the deflate’s high-water mark', async () => {
    const held: (() => void)[] = [];
    let taken = 0;
    const stalled = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        taken += chunk.length;
        held.push(callback);
      },
    });
    const zip = new ZipWriter(stalled);
    const entry = zip.openEntry('random.bin');
    // incompressible: what goes in comes out as large
    let written = 0;
    let waiting = false;
    for (let i = 0; i < 32 && !waiting; i += 1) {
      const piece = randomBytes(1024 * 1024);
      entry.write(piece);
      written += piece.length;
      const ready = entry.ready().then(() => 'ready');
      waiting =
        (await Promise.race([ready, new Promise((r) => setTimeout(() => r('waiting'), 300))])) === 'waiting';
    }
    expect(waiting).toBe(true);
    // the writer stopped long before 32 MB: the file's buffer, the deflate's output and its input are bounded
    expect(written).toBeLessThanOrEqual(12 * 1024 * 1024);
    expect(taken).toBeLessThan(written);
    // the file takes its bytes again: the writer goes on and the part is complete
    const release = setInterval(() => {
      for (const callback of held.splice(0)) callback();
    }, 5);
    try {
      await entry.ready();
      await entry.close();
      await zip.finish();
    } finally {
      clearInterval(release);
    }
    expect(taken).toBeGreaterThan(written);
  });

  it('refuses a part added while another is being streamed, or after the central directory', async () => {
    const zip = new ZipWriter(new Writable({ write: (_chunk, _encoding, callback) => callback() }));
    const entry = zip.openEntry('xl/worksheets/sheet1.xml');
    expect(() => zip.addFile('xl/styles.xml', '<a/>')).toThrow(
      'zip: xl/styles.xml added while xl/worksheets/sheet1.xml is still being written',
    );
    await entry.close();
    await zip.finish();
    expect(() => zip.openEntry('late.xml')).toThrow('zip: late.xml added after the central directory');
  });
});

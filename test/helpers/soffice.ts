// LibreOffice's soffice for the report tests that open or print workbooks (libreoffice, printable-summary,
// printed-reports): where it is installed, and one headless conversion of workbooks to PDF with a profile of
// the test's own (so parallel tests never share LibreOffice's user folder).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** soffice's path, or undefined where LibreOffice is not installed (.ci/run installs it). */
export const SOFFICE = [
  '/usr/bin/soffice',
  '/usr/local/bin/soffice',
  '/usr/lib/libreoffice/program/soffice',
].find((p) => existsSync(p));

/** Converts `workbooks` to PDFs in `outDir` in one soffice call; what soffice said (stdout and stderr). */
export async function convertToPdf(
  workbooks: readonly string[],
  o: { outDir: string; profileDir: string; timeoutMs: number },
): Promise<string> {
  const { stdout, stderr } = await run(
    SOFFICE!,
    [
      `-env:UserInstallation=file://${o.profileDir}`,
      '--headless',
      '--norestore',
      '--convert-to',
      'pdf',
      '--outdir',
      o.outDir,
      ...workbooks,
    ],
    { timeout: o.timeoutMs },
  );
  return `${stdout}\n${stderr}`;
}

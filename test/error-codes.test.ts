// The error catalogue (src/error-codes.ts) against the sources and docs/errors.md: every code thrown in src/
// is catalogued with the kind it is thrown with, every catalogued code is thrown somewhere, and the doc lists
// exactly the catalogue. The sources are parsed with TypeScript's parser, not matched with regexes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/error-codes.js';

const root = join(import.meta.dirname, '..');
const codes = new Set<string>(Object.keys(ERROR_CODES));

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listSources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

interface Thrown {
  where: string;
  /** The code when it is a string literal (else the expression's text). */
  code: string;
  literal: boolean;
  /** The kind when it is a literal: given in the options, 'usage' for UsageError, else the default 'terminal'. */
  kind: string | undefined;
}

function literalOf(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    ? node.text
    : undefined;
}

/** Every `new EtlError(...)` and `new UsageError(...)` in src/. */
function findThrown(): Thrown[] {
  const found: Thrown[] = [];
  for (const file of listSources(join(root, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const name = node.expression.text;
        const args = node.arguments ?? [];
        const where = `${file.slice(root.length + 1)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        if (name === 'UsageError') {
          const code = args[1] === undefined ? 'usage' : literalOf(args[1]);
          found.push({ where, code: code ?? args[1]!.getText(), literal: code !== undefined, kind: 'usage' });
        } else if (name === 'EtlError') {
          const code = literalOf(args[0]);
          let kind: string | undefined = 'terminal';
          const options = args[2];
          if (options && ts.isObjectLiteralExpression(options)) {
            const k = options.properties.find(
              (p): p is ts.PropertyAssignment =>
                ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'kind',
            );
            if (k) kind = literalOf(k.initializer);
          } else if (options) kind = undefined;
          found.push({ where, code: code ?? args[0]!.getText(), literal: code !== undefined, kind });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the error catalogue', () => {
  const thrown = findThrown();

  it('finds the errors thrown in src/', () => {
    expect(thrown.length).toBeGreaterThan(150);
  });

  it('catalogues every code thrown in src/, with the kind it is thrown with', () => {
    const problems: string[] = [];
    for (const t of thrown) {
      // a code held in a variable or chosen by an expression is checked by the compiler (EtlError takes an ErrorCode)
      if (!t.literal) continue;
      if (!codes.has(t.code)) problems.push(`${t.where}: ${t.code} is not in ERROR_CODES`);
      else if (
        t.kind !== undefined &&
        !(ERROR_CODES as Record<string, { kinds: readonly string[] }>)[t.code]!.kinds.includes(t.kind)
      )
        problems.push(
          `${t.where}: ${t.code} is thrown as ${t.kind}, the catalogue says ${ERROR_CODES[t.code as keyof typeof ERROR_CODES].kinds.join('/')}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('lists no code that nothing in src/ uses', () => {
    const sources = listSources(join(root, 'src'))
      .filter((f) => !f.endsWith('error-codes.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = [...codes].filter((c) => c !== 'usage' && !sources.includes(`'${c}'`));
    expect(unused).toEqual([]);
  });

  it('docs/errors.md lists exactly the catalogued codes', () => {
    const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
    const listed = [...doc.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
    expect([...listed].sort()).toEqual([...codes].sort());
  });

  it('src/ throws no plain Error outside the emulator and internal checks', () => {
    // the emulator (a test harness) and read-report-file (its error is wrapped into platform_report.bad_file)
    const allowed = ['src/emulator/', 'src/platform-reports/read-report-file.ts'];
    const plain: string[] = [];
    for (const file of listSources(join(root, 'src'))) {
      const rel = file.slice(root.length + 1);
      if (allowed.some((a) => rel.startsWith(a))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, n) => {
          if (/throw new Error\(/.test(line)) plain.push(`${rel}:${n + 1}`);
        });
    }
    expect(plain).toEqual([]);
  });
});

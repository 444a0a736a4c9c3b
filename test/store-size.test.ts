/**
 * The data dir stays small enough to read (issue 38, decision 0248): src/store/ at most
 * STORE_MAX_LINES lines of non-test code, no file there or src/delivery/outbox.ts over
 * FILE_MAX_LINES, no function in them over FUNCTION_MAX_LINES. Functions are found by the
 * TypeScript compiler's own parser (declarations, methods, constructors, accessors, function
 * expressions and arrow functions), measured from their first line to their last.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Node, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';
import { describe, expect, it } from 'vitest';

const STORE_MAX_LINES = 1600;
const FILE_MAX_LINES = 400;
const FUNCTION_MAX_LINES = 80;

const ROOT = new URL('..', import.meta.url).pathname;

const FUNCTIONS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/**
 * What breaks the bars among `files` (paths relative to `root`, whose tsconfig.json holds them), one
 * line each; empty when they hold.
 */
function overBars(root: string, files: string[]): string[] {
  const api = new API({ cwd: root });
  try {
    const project = api.updateSnapshot({ openProject: join(root, 'tsconfig.json') }).getProjects()[0]!;
    const over: string[] = [];
    let store = 0;
    for (const path of files) {
      const source = project.program.getSourceFile(join(root, path))!;
      const lines = lineCount(source.text);
      if (path.startsWith('src/store/')) store += lines;
      if (lines > FILE_MAX_LINES) over.push(`${path}: ${lines} lines (at most ${FILE_MAX_LINES})`);
      const visit = (node: Node): void => {
        if (FUNCTIONS.has(node.kind)) {
          const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const span = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
          if (span > FUNCTION_MAX_LINES)
            over.push(
              `${path}: the function at line ${first + 1} has ${span} lines (at most ${FUNCTION_MAX_LINES})`,
            );
        }
        node.forEachChild(visit);
      };
      source.forEachChild(visit);
    }
    if (store > STORE_MAX_LINES)
      over.push(`src/store/: ${store} lines of non-test code (at most ${STORE_MAX_LINES})`);
    return over;
  } finally {
    api.close();
  }
}

describe('the size of src/store/ and the outbox', () => {
  const store = readdirSync(join(ROOT, 'src/store'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => `src/store/${f}`);
  let found: string[] | undefined;
  const over = () => {
    found ??= overBars(ROOT, [...store, 'src/delivery/outbox.ts']);
    return found;
  };

  it('has no file, function or folder total over its bar', () => {
    expect(over()).toEqual([]);
  });

  it('bites: a folder over its total, a file over its bar, a function over its bar', () => {
    const root = mkdtempSync(join(tmpdir(), 'store-size-'));
    try {
      const body = (n: number, indent = '  ') => `${indent}x();\n`.repeat(n);
      const files: Record<string, string> = {
        'src/store/a.ts': `declare const x: () => void;\nexport function within() {\n${body(78)}}\nexport function long() {\n${body(79)}}\n`,
        'src/store/b.ts': `export const b = 1;\n${'// line\n'.repeat(400)}`,
        'src/store/c.ts': `${'// line\n'.repeat(400)}`,
        'src/store/d.ts': `${'// line\n'.repeat(400)}`,
        'src/store/e.ts': `${'// line\n'.repeat(400)}`,
        'src/delivery/outbox.ts': `declare const x: () => void;\nclass O {\n  m = () => {\n${body(79, '    ')}  };\n}\nexport { O };\n`,
      };
      writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ files: Object.keys(files) }));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      expect(overBars(root, Object.keys(files))).toEqual([
        'src/store/a.ts: the function at line 82 has 81 lines (at most 80)',
        'src/store/b.ts: 401 lines (at most 400)',
        'src/delivery/outbox.ts: the function at line 3 has 81 lines (at most 80)',
        'src/store/: 1763 lines of non-test code (at most 1600)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

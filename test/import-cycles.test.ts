/**
 * No import circles in src/ (STYLE "No import circles"): a module mounted by the app must not import
 * the app's builder; it is handed what it needs. Static, dynamic (`import('…')`) and type imports all
 * count: a lazy import still ties the two modules together, and an `import type` circle is a circle of
 * meaning the compiler merely erases (issue 26 §1: the domain's value types now live in src/model/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url).pathname;

/** Every module of src/ (tests excluded), as a path relative to src/. */
function modules(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return modules(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [relative(SRC, path)] : [];
  });
}

// `import x from './a.js'`, `import { type A, b } from`, `import type`, `export * from`, `export { a } from`, `export type`.
const STATIC = /^\s*(?:import|export)\s+(?:[^;'"]*?\bfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The modules of src/ that `file` imports, statically or dynamically. */
function importsOf(file: string, source: string): string[] {
  // Comments may show imports as examples (`() => import('./x.js')`); they are not edges.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((m) => m[1]!);
  const paths = found.map((spec) => relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.js$/, '.ts'));
  return [...new Set(paths)];
}

/** Every circle of the graph, each once, as the path that closes it (`a → b → a`). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (node: string) => {
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (onStack.has(next)) found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    onStack.delete(node);
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) if (!done.has(node)) visit(node);
  return found;
}

/** Modules not matched by `above` whose imports lead, arrow by arrow, into src/admin/: `m → first → … → admin/`. */
function reachingAdmin(graph: Map<string, string[]>, above: RegExp): string[] {
  const reaches = (from: string): boolean => {
    const seen = new Set<string>();
    const todo = [from];
    while (todo.length > 0) {
      for (const d of graph.get(todo.pop()!) ?? []) {
        if (d.startsWith('admin/')) return true;
        if (seen.has(d)) continue;
        seen.add(d);
        todo.push(d);
      }
    }
    return false;
  };
  return [...graph]
    .filter(([m]) => !above.test(m))
    .flatMap(([m, deps]) =>
      deps.filter((d) => d.startsWith('admin/') || reaches(d)).map((d) => `${m} → ${d} → … → admin/`),
    );
}

describe('the import graph of src/', () => {
  const graph = new Map(modules().map((m) => [m, importsOf(m, readFileSync(join(SRC, m), 'utf8'))]));

  it('resolves every relative import to a module of src/ (the walk sees the whole graph)', () => {
    const known = new Set(graph.keys());
    const missing = [...graph].flatMap(([m, deps]) =>
      deps.filter((d) => !known.has(d)).map((d) => `${m} → ${d}`),
    );
    expect(missing).toEqual([]);
    expect(graph.get('app.ts')).toEqual(expect.arrayContaining(['admin/guard.ts', 'admin/index.ts']));
  });

  it('has no circle of imports, static, dynamic or type', () => {
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('has no arrow from a domain folder up into src/admin/ (the admin contract reads src/model/, not the reverse)', () => {
    // Above the admin API: the app, the server and what drives an emulator through the admin API.
    const above = /^(admin|client)\/|^(app|server|main|index)\.ts$/;
    const up = [...graph]
      .filter(([m]) => !above.test(m))
      .flatMap(([m, deps]) => deps.filter((d) => d.startsWith('admin/')).map((d) => `${m} → ${d}`));
    expect(up).toEqual([]);
  });

  it('nothing below src/admin/ reaches it, directly or through src/client/ (transitive imports)', () => {
    // What builds or drives an emulator through its admin API stands above it; everything else is below.
    const above = /^(admin|client|cli|programmatic|scenarios|verify-client)\/|^(app|server|main|index)\.ts$/;
    expect(reachingAdmin(graph, above)).toEqual([]);
    // The check itself can fail: a domain module importing the client is caught two arrows away.
    const planted = new Map([...graph, ['delivery/planted.ts', ['client/index.ts']]]);
    expect(reachingAdmin(planted, above)).toEqual(['delivery/planted.ts → client/index.ts → … → admin/']);
  });

  it('src/model/ imports nothing else from src/: it is the floor the domain folders stand on', () => {
    const up = [...graph]
      .filter(([m]) => m.startsWith('model/'))
      .flatMap(([m, deps]) => deps.filter((d) => !d.startsWith('model/')).map((d) => `${m} → ${d}`));
    expect(up).toEqual([]);
  });

  /**
   * Module arrows that still close a circle of folders, each with why it is left: the list only
   * shrinks (an arrow gone from the code fails the test until it leaves the list too).
   */
  const FOLDER_BACK_ARROWS: Record<string, string> = {};

  it('the folder-level graph (a folder, or a top-level module, per node) has no circle but the listed arrows', () => {
    const folderOf = (m: string) => (m.includes('/') ? m.slice(0, m.indexOf('/')) : m);
    const folders = new Map<string, string[]>();
    for (const [m, deps] of graph) {
      const from = folderOf(m);
      const to = deps
        .filter((d) => !(`${m} → ${d}` in FOLDER_BACK_ARROWS))
        .map(folderOf)
        .filter((d) => d !== from);
      folders.set(from, [...new Set([...(folders.get(from) ?? []), ...to])]);
    }
    expect(cycles(folders).map((c) => c.join(' → '))).toEqual([]);
    const present = new Set([...graph].flatMap(([m, deps]) => deps.map((d) => `${m} → ${d}`)));
    expect(Object.keys(FOLDER_BACK_ARROWS).filter((a) => !present.has(a))).toEqual([]);
  });

  it('the dashboard (ui/) has no circle of imports either', () => {
    const UI = new URL('../ui/', import.meta.url).pathname;
    const files = readdirSync(UI).filter((f) => f.endsWith('.js'));
    const ui = new Map(
      files.map((f) => [
        f,
        [...readFileSync(join(UI, f), 'utf8').matchAll(STATIC)].map((m) => m[1]!.replace(/^\.\//, '')),
      ]),
    );
    expect(ui.get('detail.js')).toEqual(expect.arrayContaining(['route.js', 'state.js']));
    expect(cycles(ui).map((c) => c.join(' → '))).toEqual([]);
  });

  it('finds a circle when there is one (the check itself can fail)', () => {
    const circle = new Map([
      ['admin/scenarios.ts', ['scenarios/serve.ts']],
      ['scenarios/serve.ts', ['server.ts']],
      ['server.ts', ['app.ts']],
      ['app.ts', ['admin/scenarios.ts']],
    ]);
    expect(cycles(circle).map((c) => c.join(' → '))).toEqual([
      'admin/scenarios.ts → scenarios/serve.ts → server.ts → app.ts → admin/scenarios.ts',
    ]);
    expect(
      importsOf('admin/x.ts', "import type { A } from '../a.js';\nconst m = await import('../b.js');"),
    ).toEqual(['a.ts', 'b.ts']);
  });
});

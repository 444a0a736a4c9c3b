import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 38 §7: where docs/architecture.md says "X calls Y" or "only X does Z", a scan of the code
// checks the claim, not only that X exists. Each claim is quoted from the map (so a reworded claim
// fails here until its check is looked at again) and answers what contradicts it.

const ROOT = join(import.meta.dirname, '..');
const MAP = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

/** Every non-test module under `dir` (relative to the repository), with its text. */
function modules(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => {
      const path = relative(ROOT, join(e.parentPath, e.name));
      // Comments may name what the code does not do.
      const text = readFileSync(join(ROOT, path), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      return { path, text };
    });
}

/** The modules of `dir` whose code matches `pattern`. */
const matching = (dir: string, pattern: RegExp) =>
  modules(dir)
    .filter((m) => pattern.test(m.text))
    .map((m) => m.path);

const CLAIMS: Array<{ quote: string; contradictions: () => string[] }> = [
  {
    // src/admin/mount.ts reads params, query and body through the route table's schemas.
    quote:
      'a handler is handed `{ params, query, body }` typed from the declaration and never reads the body itself',
    contradictions: () =>
      matching(
        'src/admin',
        /\bc\.req\.(json|text|arrayBuffer|blob|formData|parseBody)\(|readRequestBody\(/,
      ).filter((p) => !['src/admin/mount.ts', 'src/admin/body-limits.ts'].includes(p)),
  },
  {
    quote: 'a bad field is a 400 naming it) and calls `emulator.reservations.apply()`',
    contradictions: () =>
      /\breservations\.apply\(/.test(
        modules('src/admin').find((m) => m.path === 'src/admin/events.ts')?.text ?? '',
      )
        ? []
        : ['src/admin/events.ts does not call reservations.apply()'],
  },
  {
    quote: 'scenarios and `run --target` drive the emulator only through',
    contradictions: () =>
      modules('src/scenarios/run').flatMap((m) =>
        [
          ...m.text.matchAll(
            /from '((?:\.\.\/)+(?:emulator|admin\/|auth\/|reservations\/|delivery\/(?:service|outbox|notification-store))[^']*)'/g,
          ),
        ].map((x) => `${m.path} imports ${x[1]}`),
      ),
  },
  {
    quote: '`persistent-state.ts` (reads it back into the services, then keeps the change stream',
    contradictions: () =>
      matching('src', /\bchanges\.keep\(/).filter((p) => p !== 'src/store/persistent-state.ts'),
  },
];

describe('what docs/architecture.md claims', () => {
  it.each(CLAIMS.map((c) => [c.quote, c] as const))('holds: "%s"', (_quote, claim) => {
    expect(MAP).toContain(claim.quote);
    expect(claim.contradictions()).toEqual([]);
  });

  it('a claim the code contradicts is found (the scans can fail)', () => {
    const readsBody = /\bc\.req\.(json|text|arrayBuffer|blob|formData|parseBody)\(/;
    expect(readsBody.test('const b = await c.req.json();')).toBe(true);
    expect(matching('src/admin', /reservations\.apply\(/)).toContain('src/admin/events.ts');
  });
});

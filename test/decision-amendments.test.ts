import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 38 §7: a decision record that a later one amends or supersedes says so under its status
// (docs/decisions/README.md: "A record changed in part says `Amended by: NNNN`"), so a reader of
// the older record finds the newer one. The header is every line before the first section.

const DIR = join(import.meta.dirname, '..', 'docs', 'decisions');

const records = new Map(
  readdirSync(DIR)
    .filter((f) => /^\d{4}-.*\.md$/.test(f))
    .map((f) => {
      const text = readFileSync(join(DIR, f), 'utf8');
      const header = text.slice(0, text.search(/^## /m) >>> 0);
      return [f.slice(0, 4), { file: f, header }] as const;
    }),
);

/** The records a header's `Amends:` line or `Supersedes` words name. */
function amended(header: string): string[] {
  const lines = header.split('\n').filter((l) => /^(- )?(Amends|Status:.*Supersedes)/i.test(l));
  const named = lines.flatMap((l) =>
    [...l.replace(/\(.*?\)/g, '').matchAll(/\b(\d{4})\b/g)].map((m) => m[1]!),
  );
  return named.filter((n) => !/^20\d\d$/.test(n) || records.has(n));
}

describe('decision records', () => {
  it('finds records that amend others (the check reads them)', () => {
    const amending = [...records.values()].filter((r) => amended(r.header).length > 0);
    expect(amending.length).toBeGreaterThan(5);
  });

  it('every record amended or superseded by a later one says "Amended by" or "superseded by" it', () => {
    const missing: string[] = [];
    for (const [number, { file, header }] of records) {
      for (const target of amended(header)) {
        const older = records.get(target);
        if (!older) {
          missing.push(`${file} amends ${target}, which has no record`);
          continue;
        }
        const says = older.header
          .split('\n')
          .some((l) => /(Amended by|superseded by)/i.test(l) && l.includes(number));
        if (!says) missing.push(`${older.file} has no "Amended by: ${number}" line (${file} amends it)`);
      }
    }
    expect(missing).toEqual([]);
  });
});

#!/usr/bin/env node
/**
 * The mutation drill of the stores' one writer (issue 38 §5, decisions 0213, 0233, 0250). Every
 * store has one `apply(change)`, called by the change stream after the keeper and by replay after a
 * restart.
 * For each case of each store's `apply`, one mutant whose case does nothing in the emulator that
 * makes the change (kept and told, never made; for the kinds only crash repair reads, while the
 * restarted emulator starts); for each kind of change a store applies, one mutant that
 * bypasses the stream (the owner applies the change itself: never kept, never heard). The mutants
 * are found in the source and run in one process (test/drill/mutation-drill.drill.ts), each a hook
 * on a prototype, met by the restart-equivalence property (test/helpers/restart-property.ts, its
 * reset oracle included: decision 0250) on a fixed seed and stopped at its first failing sequence.
 * Prints every mutant and what killed it (the test, the sequence and the GET that differed) on
 * stdout, which `.ci/run` leaves in the CI log; exits 0 only if every mutant was killed.
 *
 *   node scripts/mutation-drill.mjs [--only <substring>[,<substring>…]] [--sequences <n>] [--seed <n>] [--list]
 *
 * `--list` prints the mutants and runs none.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('*/')[0]
      .replace(/^#!.*\n\/\*\*\n/, '')
      .replace(/^ \* ?/gm, ''),
  );
  process.exit(0);
}
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const only = option('--only', undefined);
// 200 sequences bound a mutant that would survive; a killed one stops at its first failing sequence.
const sequences = option('--sequences', '200');
const seed = option('--seed', '38');
for (const [name, value] of [
  ['--sequences', sequences],
  ['--seed', seed],
]) {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    console.error(`${name} takes a whole number of at least 1, not ${JSON.stringify(value)}`);
    process.exit(2);
  }
}

/** Kinds of change no store applies, and why no mutant is made of them. */
const NO_OWNER = {
  event_routed: 'it tells what routing did; its reservations and notifications are changes of their own',
  clock_started: 'the clock is no store: the data dir keeps where it stood, the clock starts there',
  clock_advanced: 'the clock is no store: the data dir keeps where it stood, the clock starts there',
};

/**
 * Kinds whose state only a restart after a crash reads (what the crash cut off): their mutants meet
 * the crash cut first, and their `apply` mutant does nothing while the restarted emulator starts.
 * Every other kind's does nothing in the emulator that makes the change, which keeps and tells it:
 * the restart makes it, and the property sees the difference.
 */
const READ_AT_RESTART = {
  attempt_started: 'the attempts started and not ended are what a crash cuts off',
  batch_started: 'the batch running is what a crash cuts off',
};

/** The source files of src/ (tests aside), relative to the root. */
function sources(dir = 'src') {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Every mutant: one per case of each store class's `apply(change: …)` (the class that holds the
 * method), then one per kind those cases apply (the stream bypassed).
 */
function mutants() {
  const out = [];
  const applied = new Set();
  for (const file of sources()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const method of text.matchAll(/^( +)apply\(change: [^)]*\): void \{\n([\s\S]*?)^\1\}$/gm)) {
      if (!/switch \(change\.kind\) \{\n/.test(method[0])) continue;
      const owner = [...text.slice(0, method.index).matchAll(/^export class (\w+)/gm)].at(-1)?.[1];
      for (const c of method[0].matchAll(/^ +case '([a-z_]+)':/gm)) {
        applied.add(c[1]);
        const phase = c[1] in READ_AT_RESTART ? 'restart' : 'live';
        const when = phase === 'live' ? 'kept and told, never made' : 'while the restarted emulator starts';
        out.push({
          name: `apply: ${c[1]} does nothing, ${when} (${owner}, ${file})`,
          how: 'apply',
          phase,
          crashFirst: c[1] in READ_AT_RESTART,
          kind: c[1],
          file,
          owner,
        });
      }
    }
  }
  for (const kind of applied)
    if (!(kind in NO_OWNER))
      out.push({
        name: `stream bypassed: ${kind} applied but never kept nor heard`,
        how: 'bypass',
        crashFirst: kind in READ_AT_RESTART,
        phase: 'live',
        kind,
      });
  return out.filter((x) => !only || only.split(',').some((o) => x.name.includes(o)));
}

const started = Date.now();
const queue = mutants();
if (args.includes('--list')) {
  for (const m of queue) console.log(m.name);
  process.exit(queue.length > 0 ? 0 : 1);
}
const work = mkdtempSync(join(tmpdir(), 'reportbo-drill-'));
const report = join(work, 'report.json');
writeFileSync(join(work, 'mutants.json'), JSON.stringify(queue));
// Read by the drill's test file in its worker.
process.env.REPORTBO_DRILL_MUTANTS = join(work, 'mutants.json');
process.env.REPORTBO_DRILL_REPORT = report;
process.env.REPORTBO_DRILL_SEED = seed;
process.env.RESTART_SEQUENCES = sequences;
const vitest = await startVitest('test', [], {
  root: ROOT,
  config: false,
  include: ['test/drill/*.drill.ts'],
  setupFiles: ['test/setup/file-hooks.ts'],
  pool: 'forks',
  watch: false,
  reporters: ['dot'],
});
await vitest?.close();
let results = [];
try {
  results = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  // No report: the drill's file did not start (printed above by vitest).
}
rmSync(work, { recursive: true, force: true });
for (const r of results) console.log(`${r.killed ? 'killed  ' : 'SURVIVED'} ${r.name}: ${r.by}`);
const survived = results.filter((r) => !r.killed);
console.log(
  `\nmutation drill: ${results.length - survived.length} of ${queue.length} mutants killed in ${Math.round((Date.now() - started) / 1000)} s (seed ${seed}, at most ${sequences} sequences each)`,
);
for (const [kind, why] of Object.entries(NO_OWNER)) console.log(`  no mutant of ${kind}: ${why}`);
for (const r of survived) console.log(`  survived: ${r.name} (${r.by})`);
process.exit(survived.length === 0 && results.length === queue.length && queue.length > 0 ? 0 : 1);

#!/usr/bin/env node
/**
 * The mutation drill of the restart-equivalence property (test/restart-equivalence.test.ts): for
 * each kind of change, one mutant whose record is never written (the change bypasses the data dir:
 * `recordOf` in src/store/keep.ts answers none for it) and, for each kind of record, one whose
 * replay does nothing (its case in src/store/replay.ts breaks at once). Each mutant is written
 * into the source, the property test runs against it, and the source is put back. Exits 0 only if
 * the test killed every mutant; prints every mutant and the test that killed it (or that none did).
 *
 *   node scripts/mutation-drill.mjs [--only <substring>[,<substring>…]] [--sequences <n>]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEST = 'test/restart-equivalence.test.ts';
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
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const sequences = args.includes('--sequences') ? args[args.indexOf('--sequences') + 1] : '200';

/** Change kinds that write no record of their own, and why no mutant is made of them. */
const NO_RECORD = { event_routed: 'its reservations and notifications are changes of their own' };

/** Every mutant: a name, a file, and the text that replaces one exact occurrence. */
function mutants() {
  const out = [];
  const keep = readFileSync(join(ROOT, 'src/store/keep.ts'), 'utf8');
  for (const m of keep.matchAll(/^ {4}case '([a-z_]+)':$/gm)) {
    if (m[1] in NO_RECORD) continue;
    out.push({
      name: `keep: ${m[1]} not written`,
      file: 'src/store/keep.ts',
      from: m[0],
      to: `${m[0]} if (c) return undefined;`,
    });
  }
  const replay = readFileSync(join(ROOT, 'src/store/replay.ts'), 'utf8');
  for (const m of replay.matchAll(/^ {6}case '([a-z+\->]+)':( \{)?$/gm)) {
    out.push({
      name: `replay: ${m[1]} not applied`,
      file: 'src/store/replay.ts',
      from: m[0],
      to: `      case '${m[1]}': if (rec) break;${m[2] ?? ''}`,
    });
  }
  return out.filter((x) => !only || only.split(',').some((o) => x.name.includes(o)));
}

/**
 * The tests that may kill a mutant, in order: the property first; for what only a crash shows (an
 * attempt or a batch a kill -9 cut off, a compressed clock's start, the retention's drops), the
 * tests of those; the crash test runs the CLI as built (dist/: rebuilt with the mutant, and once
 * more at the end without it).
 */
const KILLERS = [
  { test: TEST, env: { RESTART_SEQUENCES: sequences } },
  { test: 'test/persistence.test.ts' },
  { test: 'test/notification-retention.test.ts' },
  { test: 'test/crash-cut-exhausted.test.ts', build: true },
  // On the build the killer before made.
  { test: 'test/crash-batch.test.ts' },
];

/** What a vitest JSON run says failed first (the test, and the GET that differs), or undefined. */
function failureOf(run, test) {
  try {
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')));
    const failed = report.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed'));
    if (!failed[0]) return undefined;
    const line = (failed[0].failureMessages[0] ?? '').split('\n').find((l) => l.includes('GET /'));
    return `${test} > ${failed[0].fullName}${line ? `: ${line.trim()}` : ''}`;
  } catch {
    return run.status === 0
      ? undefined
      : `${test} (exit ${run.status}, no report: ${run.stderr.slice(-300)})`;
  }
}

/** Runs one killer against the source as it is now; answers what failed, or undefined. */
function runKiller(killer) {
  if (killer.build) {
    // Emitted without type checking: a mutant is dead code to the checker (an unreachable case).
    const built = spawnSync(
      'sh',
      ['-c', 'npx tsc -p tsconfig.build.json --noCheck && node scripts/build-cli.mjs'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    // A mutant that does not build is a broken drill, never a kill.
    if (built.status !== 0)
      return { error: `npm run build failed with the mutant: ${(built.stdout + built.stderr).slice(-400)}` };
  }
  const run = spawnSync('npx', ['vitest', 'run', killer.test, '--reporter=json'], {
    cwd: ROOT,
    env: { ...process.env, ...killer.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return failureOf(run, killer.test);
}

let rebuild = false;
const results = [];
for (const mutant of mutants()) {
  const file = join(ROOT, mutant.file);
  const original = readFileSync(file, 'utf8');
  if (original.split(mutant.from).length !== 2) {
    results.push({
      ...mutant,
      killed: false,
      by: `the text to mutate is not found exactly once in ${mutant.file}`,
    });
    continue;
  }
  writeFileSync(file, original.replace(mutant.from, mutant.to));
  let killedBy;
  let broken;
  try {
    for (const killer of KILLERS) {
      rebuild ||= killer.build === true;
      const answer = runKiller(killer);
      if (typeof answer === 'object') {
        broken = answer.error;
        break;
      }
      killedBy = answer;
      if (killedBy) break;
    }
  } finally {
    writeFileSync(file, original);
  }
  results.push({
    ...mutant,
    killed: killedBy !== undefined,
    by: killedBy ?? broken ?? 'survived: no test failed',
  });
  const last = results.at(-1);
  console.log(`${last.killed ? 'killed  ' : 'SURVIVED'} ${last.name}: ${last.by}`);
}
if (rebuild) spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
const survived = results.filter((r) => !r.killed);
console.log(`\nmutation drill: ${results.length - survived.length} of ${results.length} mutants killed`);
for (const [kind, why] of Object.entries(NO_RECORD)) console.log(`  no mutant of ${kind}: ${why}`);
for (const r of survived) console.log(`  survived: ${r.name} (${r.by})`);
process.exit(survived.length === 0 && results.length > 0 ? 0 : 1);

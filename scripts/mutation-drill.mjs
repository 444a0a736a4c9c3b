#!/usr/bin/env node
/**
 * The mutation drill of the stores' one writer (issue 38 §5, decision 0213). Every store has one
 * `apply(change)`, called by the change stream after the keeper and by replay after a restart. For
 * each case of each store's `apply`, one mutant whose case does nothing; for each kind of change a
 * store emits, one mutant that bypasses the stream (the store applies the change itself: never kept,
 * never heard). Each mutant is made in a copy of the source (one copy per worker, `--workers` of
 * them at once), and the killers run against it, stopping at the first failure: the
 * restart-equivalence property (test/restart-equivalence.test.ts, `--sequences` of them) with the
 * in-process crash test (test/restart-crash-cut.test.ts) and the sweep of every kind of change
 * (test/restart-sweep.test.ts), then the unit and end-to-end tests of the
 * store's own feature. Prints every mutant and the test that killed it; exits 0 only if every mutant
 * was killed.
 *
 *   node scripts/mutation-drill.mjs [--only <substring>[,<substring>…]] [--sequences <n>] [--workers <n>] [--list]
 *
 * `--list` prints the mutants and runs none.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';

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
const sequences = option('--sequences', '30');
const workers = Math.max(1, Number(option('--workers', '2')));
for (const [name, value] of [
  ['--sequences', sequences],
  ['--workers', String(workers)],
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

/** The source files of src/ (tests aside), relative to the root. */
function sources(dir = 'src') {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every mutant: a name, a file, and the text that replaces one exact occurrence. */
function mutants() {
  const out = [];
  const applied = new Set();
  for (const file of sources()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    // Each case of an `apply(change: …)` method, up to the method's closing brace.
    for (const method of text.matchAll(/^( +)apply\(change: [^)]*\): void \{\n([\s\S]*?)^\1\}$/gm)) {
      const whole = method[0];
      const opening = /switch \(change\.kind\) \{\n/.exec(whole);
      if (!opening) continue;
      for (const c of whole.matchAll(/^( +)case '([a-z_]+)':( \{)?\n/gm)) {
        applied.add(c[2]);
        // Its label leaves its group (the cases that share its code) for a case of its own that
        // does nothing, first in the switch: the other kinds of the group still run their code.
        const at = opening.index + opening[0].length;
        const without = `${whole.slice(0, c.index)}${c[3] ? `${c[1]}{\n` : ''}${whole.slice(c.index + c[0].length)}`;
        out.push({
          name: `apply: ${c[2]} does nothing (${file})`,
          file,
          from: whole,
          to: `${without.slice(0, at)}${c[1]}case '${c[2]}':\n${c[1]}  break;\n${without.slice(at)}`,
        });
      }
    }
  }
  // Each kind's emit, in the store that owns it (the data dir's crash repair is no store).
  const bypassed = new Set();
  for (const file of sources().filter((f) => !f.startsWith('src/store/'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const sites = [
      ...text.matchAll(/([\w.#?]+)\.(emit|emitMade)\((\s*\{\s*kind: '([a-z_]+)')/g),
      ...text.matchAll(/([\w.#?]+)\.(emit|emitMade)\((RESET)(),/g),
    ];
    for (const site of sites) {
      const kind = site[4] || 'reset';
      if (kind in NO_OWNER || bypassed.has(kind)) continue;
      bypassed.add(kind);
      // The call to the end of the line its kind is on: two emits of a kind may begin alike.
      const line = text.slice(site.index, text.indexOf('\n', site.index + site[0].length));
      const call = `${site[1]}.${site[2]}(`;
      out.push({
        name: `stream bypassed: ${kind} applied but never kept nor heard (${file})`,
        file,
        from: line,
        to: `((c, owner) => owner.apply(c))(${line.slice(call.length)}`,
      });
    }
  }
  for (const kind of applied)
    if (!bypassed.has(kind)) console.warn(`warning: no emit of ${kind} found outside src/store/`);
  return out.filter((x) => !only || only.split(',').some((o) => x.name.includes(o)));
}

/**
 * The killers of a mutant of `file`, in order, each one vitest run that stops at its first failure:
 * the property with the in-process crash test; the unit tests beside the mutated file; then the
 * end-to-end tests of the stores' features.
 */
function killers(file) {
  const folder = dirname(file);
  const units = readdirSync(join(ROOT, folder))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${folder}/${f}`);
  return [
    {
      files: [
        'test/restart-equivalence.test.ts',
        'test/restart-crash-cut.test.ts',
        'test/restart-sweep.test.ts',
      ],
    },
    ...(units.length > 0 ? [{ files: units }] : []),
    {
      files: [
        'test/auth-admin.test.ts',
        'test/api-faults.test.ts',
        'test/delivery-outages.test.ts',
        'test/delivery-trust.test.ts',
        'test/notification-retention.test.ts',
        'test/delivery-redelivery.test.ts',
        'test/delivery-cancel.test.ts',
      ],
    },
  ];
}

/** A copy of what the killers run (the source, the tests, the UI they serve), node_modules linked. */
function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'reportbo-drill-'));
  for (const f of ['src', 'test', 'ui', 'package.json', 'tsconfig.json', 'vitest.config.ts'])
    cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The first failed test of a run (its file, its name, the GET that differs), or undefined. */
function firstFailure(dir, files, run) {
  // A Vitest keeps the modules of its earlier runs: only this run's files count.
  const ran = new Set(files);
  for (const m of run.testModules.filter((x) => ran.has(x.moduleId)))
    for (const t of m.children.allTests()) {
      const r = t.result();
      if (r.state !== 'failed') continue;
      const message = String(r.errors?.[0]?.message ?? '');
      const line = message.split('\n').find((l) => l.includes('GET /'));
      return `${relative(dir, t.module.moduleId)} > ${t.fullName}${line ? `: ${line.trim()}` : ''}`;
    }
  if (run.unhandledErrors.length > 0)
    return `an unhandled error: ${String(run.unhandledErrors[0]).slice(0, 200)}`;
  return undefined;
}

// Read by the property test and by vitest.config.ts (its workers per run) in every run.
process.env.RESTART_SEQUENCES = sequences;
process.env.VITEST_MAX_WORKERS = '2';
const started = Date.now();
const queue = mutants();
if (args.includes('--list')) {
  let bad = 0;
  for (const m of queue) {
    const once = readFileSync(join(ROOT, m.file), 'utf8').split(m.from).length === 2;
    if (!once) bad++;
    console.log(`${m.name}${once ? '' : ': its text is not found exactly once'}`);
  }
  process.exit(bad === 0 ? 0 : 1);
}
const results = [];
/**
 * One worker: a copy of the source and one Vitest of its own, which keeps its transforms between
 * runs; a mutant is written into the copy, its file invalidated, the killers run, the file put back.
 */
async function worker() {
  const dir = workspace();
  const vitest = await createVitest('test', { root: dir, watch: false, reporters: [{}] });
  await vitest.standalone();
  try {
    for (let mutant = queue.shift(); mutant; mutant = queue.shift()) {
      const file = join(dir, mutant.file);
      const original = readFileSync(file, 'utf8');
      let by = 'survived: no test failed';
      let killed = false;
      if (original.split(mutant.from).length !== 2)
        by = `the text to mutate is not found exactly once in ${mutant.file}`;
      else {
        writeFileSync(file, original.replace(mutant.from, mutant.to));
        vitest.invalidateFile(file);
        try {
          for (const killer of killers(mutant.file)) {
            const files = killer.files.map((f) => join(dir, f));
            const failed = firstFailure(dir, files, await vitest.runTestFiles(files));
            if (failed) {
              killed = true;
              by = failed;
              break;
            }
          }
        } finally {
          writeFileSync(file, original);
          vitest.invalidateFile(file);
        }
      }
      results.push({ ...mutant, killed, by });
      console.log(`${killed ? 'killed  ' : 'SURVIVED'} ${mutant.name}: ${by}`);
    }
  } finally {
    await vitest.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const total = queue.length;
await Promise.all(Array.from({ length: Math.min(workers, total) }, worker));
const survived = results.filter((r) => !r.killed);
console.log(
  `\nmutation drill: ${total - survived.length} of ${total} mutants killed in ${Math.round((Date.now() - started) / 1000)} s (${workers} workers, ${sequences} sequences)`,
);
for (const [kind, why] of Object.entries(NO_OWNER)) console.log(`  no mutant of ${kind}: ${why}`);
for (const r of survived) console.log(`  survived: ${r.name} (${r.by})`);
process.exit(survived.length === 0 && total > 0 ? 0 : 1);

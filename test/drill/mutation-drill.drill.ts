import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { it } from 'vitest';
import { ChangeStream } from '../../src/change-stream.js';
import type { ChangeOwner } from '../../src/model/change-sink.js';
import { crashCutRestart } from '../helpers/crash-cut.js';
import { dataDirRoot } from '../helpers/data-dir-emulators.js';
import { type Phase, RESET_ORACLE, restartsTheSame, sequenceArb } from '../helpers/restart-property.js';

// The mutation drill's one process (scripts/mutation-drill.mjs runs it; decision 0233). Every mutant
// is a hook this file installs on a prototype, so no production code can switch it on: an `apply`
// case that does nothing patches the owning store class's `apply` in the emulator that makes the
// change (for the kinds only crash repair reads, while the restarted one starts), a bypassed stream
// patches `ChangeStream`'s `emit` and `emitMade` (the owner applies the change, nobody keeps or
// hears it). Each mutant meets the
// restart-equivalence property (its reset oracle included, decision 0250) on the same fixed seed
// and stops at its first failing sequence; one it leaves meets the crash cut
// (test/helpers/crash-cut.ts), the only restart that reads what a crash cut off.

interface Mutant {
  name: string;
  how: 'apply' | 'bypass';
  kind: string;
  /** Where its hook is on: in the emulator that makes the changes, or while the restarted one starts. */
  phase: Phase;
  /** A kind only a restart after a crash reads: the crash cut meets it first. */
  crashFirst: boolean;
  /** For `apply`: the file of the store class and the class. */
  file?: string;
  owner?: string;
}

interface Outcome {
  name: string;
  killed: boolean;
  by: string;
}

type Apply = (change: { kind: string }) => void;
type Emit = (change: { kind: string }, owner?: ChangeOwner<{ kind: string }>) => void;

const SEQUENCES = Number(process.env.RESTART_SEQUENCES);
const SEED = Number(process.env.REPORTBO_DRILL_SEED);

/** The mutant's switch: `on` installs its hook, `off` puts the original back. */
interface Hook {
  on(): void;
  off(): void;
}

async function hookOf(m: Mutant): Promise<Hook> {
  if (m.how === 'apply') {
    const module = (await import(/* @vite-ignore */ `${process.cwd()}/${m.file}`)) as Record<
      string,
      { prototype: { apply: Apply } } | undefined
    >;
    const proto = module[m.owner!]?.prototype;
    if (typeof proto?.apply !== 'function') throw new Error(`no class ${m.owner} with apply in ${m.file}`);
    const apply = proto.apply;
    const mutated: Apply = function (this: unknown, change) {
      if (change.kind !== m.kind) apply.call(this, change);
    };
    return {
      on: () => {
        proto.apply = mutated;
      },
      off: () => {
        proto.apply = apply;
      },
    };
  }
  const proto = ChangeStream.prototype as unknown as { emit: Emit; emitMade: Emit };
  const { emit, emitMade } = proto;
  const bypass = (original: Emit): Emit =>
    function (this: unknown, change, owner) {
      if (change.kind === m.kind) owner?.apply(change);
      else original.call(this, change, owner);
    };
  return {
    on: () => {
      proto.emit = bypass(emit);
      proto.emitMade = bypass(emitMade);
    },
    off: () => {
      proto.emit = emit;
      proto.emitMade = emitMade;
    },
  };
}

/** What killed it: the sequence and the first line that names a GET (else the error's first line). */
function killer(details: { numRuns: number; errorInstance: unknown }): string {
  const message = String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance);
  const lines = message.split('\n');
  const line = lines.find((l) => l.includes('GET /')) ?? lines[0] ?? '';
  const check = message.includes(RESET_ORACLE) ? 'its reset oracle' : 'a restart';
  return `test/restart-equivalence.test.ts property, sequence ${details.numRuns} of seed ${SEED}, ${check}: ${line.trim()}`;
}

/** Runs the property on `m`: what killed it, or undefined when every sequence passed. */
async function property(m: Mutant, hook: Hook, root: string): Promise<string | undefined> {
  const details = await fc.check(
    fc.asyncProperty(sequenceArb, async (steps) => {
      try {
        await restartsTheSame(root, steps, (phase) => (phase === m.phase ? hook.on() : hook.off()));
      } finally {
        hook.off();
      }
    }),
    { numRuns: SEQUENCES, seed: SEED, endOnFailure: true },
  );
  return details.failed ? killer(details) : undefined;
}

/** Runs the crash cut on `m`: what killed it, or undefined when it passed. */
async function crashCut(m: Mutant, hook: Hook): Promise<string | undefined> {
  if (m.phase === 'live') hook.on();
  try {
    await crashCutRestart(m.phase === 'restart' ? hook.on : hook.off);
    return undefined;
  } catch (err) {
    return `test/restart-crash-cut.test.ts: ${String((err as Error).message).split('\n')[0]}`;
  } finally {
    hook.off();
  }
}

it('every mutant of the stores’ one writer fails a restart test', async () => {
  const mutants = JSON.parse(readFileSync(process.env.REPORTBO_DRILL_MUTANTS!, 'utf8')) as Mutant[];
  const root = dataDirRoot('reportbo-drill-');
  const outcomes: Outcome[] = [];
  for (const m of mutants) {
    const hook = await hookOf(m);
    const killers = m.crashFirst ? [crashCut, property] : [property, crashCut];
    let by: string | undefined;
    for (const k of killers) {
      by = await k(m, hook, root);
      if (by) break;
    }
    outcomes.push({
      name: m.name,
      killed: by !== undefined,
      by: by ?? `survived ${SEQUENCES} sequences of seed ${SEED} and the crash cut`,
    });
    writeFileSync(process.env.REPORTBO_DRILL_REPORT!, JSON.stringify(outcomes));
  }
}, 3_600_000);

/**
 * Runs the SDK kit: well-formed-request first and alone (it also checks the harness keeps its
 * contract), then every other case at once, each on its own emulator, so the run takes about as long
 * as its longest case (refreshes-before-expiry's 6 s, or the hanging provider's bound).
 */
import { InputError } from '../errors.js';
import { count, okCalls, said, seconds } from './cases/case.js';
import { CLIENT_CASES, type ClientCase } from './cases/index.js';
import { type HarnessRun, runHarness } from './harness.js';
import type { ResolvedClientOptions } from './options.js';
import { ENV, newPassword, Stage } from './stage.js';
import {
  CLIENT_CASE_IDS,
  CLIENT_CASE_TITLES,
  type ClientCall,
  type ClientCaseId,
  type ClientCaseResult,
  type ClientListener,
  type ClientReport,
} from './types.js';

const FIRST: ClientCaseId = 'well-formed-request';
/** Calls a case's report lists; the judgement counts them all. */
const MAX_REPORTED_CALLS = 200;

/** Runs the selected cases against the harness and answers the report; a harness that cannot keep its contract rejects with an InputError. */
export async function runVerifyClient(
  options: ResolvedClientOptions,
  listener: ClientListener = {},
): Promise<ClientReport> {
  const started = Date.now();
  const password = newPassword();
  const ids = CLIENT_CASE_IDS.filter((id) => options.cases.has(id));
  const total = ids.length;
  let ended = 0;
  const results = new Map<ClientCaseId, ClientCaseResult>();
  const run = async (id: ClientCaseId, index: number) => {
    listener.caseStart?.(id, CLIENT_CASE_TITLES[id], index, total);
    const result = await runCase(CLIENT_CASES[id], options, password);
    results.set(id, result);
    listener.caseEnd?.(result, ++ended, total);
    return result;
  };
  let gate: string | undefined;
  if (options.cases.has(FIRST)) {
    const first = await run(FIRST, 1);
    if (first.status === 'failed' && !first.calls?.some((c) => c.outcome === 'ok'))
      gate = `the SDK got no token in ${FIRST}; fix that first`;
  }
  const rest = ids.filter((id) => id !== FIRST);
  if (gate) {
    for (const [i, id] of rest.entries()) {
      listener.caseStart?.(id, CLIENT_CASE_TITLES[id], i + 2, total);
      const result = skipped(id, gate);
      results.set(id, result);
      listener.caseEnd?.(result, ++ended, total);
    }
  } else {
    const offset = options.cases.has(FIRST) ? 2 : 1;
    const settled = await Promise.allSettled(rest.map((id, i) => run(id, offset + i)));
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (rejected) throw rejected.reason;
  }
  const cases = ids.map((id) => results.get(id)!);
  const tally = (s: ClientCaseResult['status']) => cases.filter((c) => c.status === s).length;
  return {
    exec: options.exec,
    version: options.version,
    variant: options.variant,
    passed: tally('passed'),
    failed: tally('failed'),
    warned: tally('warned'),
    skipped: tally('skipped'),
    cases,
    harnessTimeoutMs: options.harnessTimeoutMs,
    hangBoundMs: options.hangBoundMs,
    durationMs: Date.now() - started,
  };
}

function skipped(id: ClientCaseId, reason: string): ClientCaseResult {
  const c = CLIENT_CASES[id];
  return {
    id,
    title: CLIENT_CASE_TITLES[id],
    status: 'skipped',
    reason,
    evidence: [],
    rule: c.rule,
    fix: c.fix,
    durationMs: 0,
  };
}

async function runCase(
  c: ClientCase,
  options: ResolvedClientOptions,
  password: string,
): Promise<ClientCaseResult> {
  const skip = c.skip?.(options);
  if (skip) return skipped(c.id, skip);
  const started = Date.now();
  const stage = await Stage.open(
    { ...c.stage?.(options), version: options.version, variant: options.variant },
    password,
  );
  try {
    const env = stage.env(c.ask);
    const boundMs = c.hangs ? options.hangBoundMs : options.harnessTimeoutMs;
    const run = await runHarness(options.exec, env, boundMs);
    checkContract(c.id, run, options, boundMs);
    const calls = stage.calls();
    const verdict = c.judge({ options, ask: c.ask, run, stage, calls, boundMs });
    const asked = { ...env, [ENV.password]: c.ask.wrongPassword ? '(a wrong password)' : '(the password)' };
    return {
      id: c.id,
      title: CLIENT_CASE_TITLES[c.id],
      status: verdict.status,
      reason: verdict.reason,
      evidence: [
        {
          sent: `${c.setting} (${ENV.tokens}=${c.ask.tokens}, ${ENV.intervalMs}=${c.ask.intervalMs})`,
          received: received(run, calls, stage),
        },
      ],
      rule: c.rule,
      fix: verdict.fix ?? c.fix,
      durationMs: Date.now() - started,
      asked,
      harness: {
        exitCode: run.exitCode,
        signal: run.signal,
        ...(run.killedAfterMs === undefined ? {} : { killedAfterMs: run.killedAfterMs }),
        durationMs: run.durationMs,
        stdout: run.stdout,
        stderr: run.stderr,
      },
      calls: calls.slice(0, MAX_REPORTED_CALLS),
      callCount: calls.length,
    };
  } finally {
    await stage.close();
  }
}

/**
 * A harness that cannot run, or that breaks the contract where the emulator answers at once, is bad
 * usage (exit 2), not a finding about the SDK.
 */
function checkContract(
  id: ClientCaseId,
  run: HarnessRun,
  options: ResolvedClientOptions,
  boundMs: number,
): void {
  const exec = `--exec "${options.exec}"`;
  if (run.notRunnable)
    throw new InputError(
      'harness_not_runnable',
      `${exec}: ${run.notRunnable}. Give a command sh can run, e.g. --exec "node harness.mjs".`,
    );
  if (id !== FIRST) return;
  if (run.killedAfterMs !== undefined)
    throw new InputError(
      'harness_never_exits',
      `${exec} did not exit within ${seconds(boundMs)} in ${FIRST}, where the emulator answers at once (it printed ${count(run.stdout.length, 'line')}). A harness prints ${ENV.tokens} tokens and exits (docs/verify-client.md "The harness contract").`,
    );
  if (run.exitCode === 0 && run.stdout.length === 0)
    throw new InputError(
      'harness_prints_nothing',
      `${exec} exited 0 but printed nothing in ${FIRST}. A harness prints each token on its own stdout line and exits 0, or prints the error and exits non-zero (docs/verify-client.md "The harness contract").`,
    );
}

/** What the SDK did, in one line: the calls the emulator saw and how the harness ended. */
function received(run: HarnessRun, calls: readonly ClientCall[], stage: Stage): string {
  const shown = calls.slice(0, 8).map((c) => `+${c.atMs} ms ${c.fault ? `fault ${c.fault}` : c.outcome}`);
  const more = calls.length > shown.length ? `, … ${calls.length - shown.length} more` : '';
  const open = stage.heldCalls();
  const hanging = open > 0 ? ` (+${count(open, 'call')} left unanswered)` : '';
  const ok = okCalls(calls).length;
  const end =
    run.killedAfterMs !== undefined
      ? `stopped after ${seconds(run.killedAfterMs)}`
      : `exit ${run.exitCode ?? run.signal} after ${seconds(run.durationMs)}`;
  return (
    `${count(calls.length, 'call')}${calls.length ? ` (${shown.join(', ')}${more})` : ''}${hanging}, ${ok} with a token; ` +
    `harness ${end}, ${count(run.stdout.length, 'line')} on stdout${said(run) ? `, last said ${said(run)}` : ''}`
  );
}

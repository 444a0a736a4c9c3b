import { AdminApiError } from '../../client/errors.js';
import { toEmulatorError } from '../../errors.js';
import type { Scenario } from '../schema/index.js';
import type { RunContext } from './context.js';
import { inProcessEnvironment, type ScenarioEnvironment } from './environment.js';
import { stepKind, stepLabel } from './label.js';
import type { ScenarioResult, StepResult } from './results.js';
import { runStep } from './steps.js';
import { targetEnvironment } from './target.js';

/** Follows a run as it happens (the console reporter prints progress from these). */
export interface RunListener {
  scenarioStart?(file: string, scenario: Scenario): void;
  note?(text: string): void;
  step?(result: StepResult): void;
  scenarioEnd?(result: ScenarioResult): void;
}

export interface RunOptions {
  /** URL of a running emulator; absent: a fresh emulator in this process. */
  target?: string;
  /** The target's admin token (`run --admin-token`), sent on every admin call. */
  adminToken?: string;
  listener?: RunListener;
}

/** Runs one scenario in its own environment and always tears that environment down. */
export async function runScenario(
  file: string,
  scenario: Scenario,
  options: RunOptions = {},
): Promise<ScenarioResult> {
  const listener = options.listener ?? {};
  listener.scenarioStart?.(file, scenario);
  const started = performance.now();
  let env: ScenarioEnvironment;
  try {
    env = options.target
      ? await targetEnvironment(scenario, options.target, options.adminToken)
      : await inProcessEnvironment(scenario, file);
  } catch (err) {
    const result: ScenarioResult = {
      file,
      name: scenario.name,
      status: 'error',
      durationMs: performance.now() - started,
      steps: [],
      error: `could not set up the scenario: ${toEmulatorError(err).message}`,
      notes: [],
    };
    listener.scenarioEnd?.(result);
    return result;
  }
  try {
    for (const n of env.notes) listener.note?.(n);
    const result = await runSteps(file, scenario, env, listener, started);
    listener.scenarioEnd?.(result);
    return result;
  } finally {
    await env.close();
  }
}

/** Runs the steps of a scenario in an environment that is already set up. */
export async function runSteps(
  file: string,
  scenario: Scenario,
  env: ScenarioEnvironment,
  listener: RunListener = {},
  started = performance.now(),
): Promise<ScenarioResult> {
  const ctx: RunContext = { env, bookings: new Map(), logins: new Map() };
  const steps: StepResult[] = [];
  let error: string | undefined;
  for (const [i, step] of scenario.steps.entries()) {
    const base = { index: i + 1, kind: stepKind(step), label: stepLabel(step) };
    if (error !== undefined) {
      const skipped: StepResult = { ...base, status: 'skipped', durationMs: 0, expectations: [] };
      steps.push(skipped);
      listener.step?.(skipped);
      continue;
    }
    const t0 = performance.now();
    let result: StepResult;
    try {
      const out = await runStep(ctx, step);
      const failed = out.expectations.some((e) => !e.passed);
      result = {
        ...base,
        status: failed ? 'failed' : 'passed',
        durationMs: performance.now() - t0,
        expectations: out.expectations,
        ...(out.detail ? { detail: out.detail } : {}),
      };
    } catch (err) {
      const e = toEmulatorError(err);
      const message =
        e instanceof AdminApiError ? `${e.message} [${e.request} → ${e.status} ${e.code}]` : e.message;
      error = `step ${base.index} (${base.label}): ${message}`;
      result = {
        ...base,
        status: 'error',
        durationMs: performance.now() - t0,
        error: message,
        expectations: [],
      };
    }
    steps.push(result);
    listener.step?.(result);
  }
  const failed = steps.some((s) => s.status === 'failed');
  return {
    file,
    name: scenario.name,
    status: error !== undefined ? 'error' : failed ? 'failed' : 'passed',
    durationMs: performance.now() - started,
    steps,
    ...(error === undefined ? {} : { error }),
    notes: [...env.notes],
  };
}

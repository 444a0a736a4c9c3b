/** Runs the selected cases one after the other against one in-process emulator and builds the report. */

import type { Attempt } from '../delivery/index.js';
import { toEmulatorError } from '../errors.js';
import { CASES, type Outcome } from './cases/index.js';
import { type Death, findDeath, groupCauses, reconnects, SUSTAINED_MS } from './causes.js';
import { VerifyContext } from './context.js';
import { acknowledged, OVER_CAP_WARNING, overCap, shortAnswer } from './evidence.js';
import { type Diagnosis, diagnose, trialsText } from './experiments.js';
import { findLosses, type Loss, STALL_FIX } from './losses.js';
import type { ResolvedOptions } from './options.js';
import { Probe } from './probe.js';
import { tracedNotifications } from './trace.js';
import type { CaseTrace } from './trace-shape.js';
import type { CaseId, CaseResult, VerifyListener, VerifyReport } from './types.js';

/** Runs the kit; never throws for what the receiver does (that is a failed case). */
export async function runVerify(
  options: ResolvedOptions,
  listener: VerifyListener = {},
): Promise<VerifyReport> {
  const started = performance.now();
  const selected = CASES.filter((c) => options.cases.has(c.id));
  const ctx = await VerifyContext.create(options);
  const { budget } = ctx;
  const probe = Probe.of(options, budget.signal);
  if (probe) probe.sentCount = () => ctx.sends;
  const results: CaseResult[] = [];
  let connectionFailure = false;
  let death: Death | undefined;
  /** Refused connections the receiver recovered from (`reconnects`). */
  const dismissed = new Set<Attempt>();
  let stopped: string | undefined;
  const overBudget: CaseId[] = [];
  /** The case whose experiments found a receiver stuck on kept-open connections (the rest is skipped). */
  let stuck: string | undefined;
  /** Diagnoses by the answer they explain (one per kind of refusal per run), with the case that found each. */
  const diagnoses = new Map<string, { diagnosis: Diagnosis; caseId: string }>();
  try {
    for (const [i, def] of selected.entries()) {
      listener.caseStart?.(def.id, def.title, i + 1, selected.length);
      const t0 = performance.now();
      const startedMs = Date.now();
      probe?.beginCase(startedMs);
      let outcome: Outcome;
      let ran = false;
      if (def.needsProbe && !probe) {
        outcome = {
          status: 'skipped',
          reason:
            'needs --probe <url-template>: a GET the receiver answers with the BookingStatus it recorded (see docs/verify.md)',
        };
      } else if (connectionFailure) {
        outcome = {
          status: 'skipped',
          // The cause stands once, on the tls line; repeating it on every skipped case buries it.
          reason: 'not run: the connection to the receiver failed (see tls)',
        };
      } else if (death) {
        outcome = {
          status: 'skipped',
          reason: `not run: the receiver stopped accepting connections during ${death.caseId} (see the cause)`,
        };
      } else if (stopped) {
        outcome = { status: 'skipped', reason: `not run: --fail-fast stopped the run at ${stopped}` };
      } else if (stuck && def.id !== 'answers-within-timeout') {
        outcome = {
          status: 'skipped',
          reason: `not run: the receiver does not answer a second request on a kept-open connection (found by experiment in ${stuck}); every delivery of this case would wait the response timeout`,
        };
      } else if (budget.spent) {
        overBudget.push(def.id);
        outcome = {
          status: 'skipped',
          reason: `not run: ${budget.what} was spent (${Math.round(performance.now() - started)} ms had passed when this case was due)`,
        };
      } else {
        try {
          await ctx.beginCase(def.id);
          ran = true;
          outcome = await def.run({ ctx, options, probe });
        } catch (err) {
          outcome = {
            status: 'failed',
            reason: `the kit could not run this case: ${toEmulatorError(err).message}`,
          };
        }
        if (budget.spent) outcome = notJudged(outcome, budget.what, overBudget, def.id);
        else if (ctx.cutShort?.caseId === def.id)
          outcome = cutShort(outcome, `a delivery with your key was cancelled: ${ctx.cutShort.why}`);
      }
      if (outcome.status === 'passed' && ctx.currentAttempts().some((m) => overCap(m.attempt)))
        // One judgement for every case: a 200 over the emulator's read cap acknowledges, and warns.
        outcome = { ...outcome, status: 'warned', reason: `${outcome.reason}; ${OVER_CAP_WARNING}` };
      if (def.id === 'tls' && outcome.status === 'failed') connectionFailure = true;
      if (!death && !connectionFailure && outcome.status !== 'skipped' && !budget.spent) {
        const attempts = () => [...ctx.measured, ...ctx.currentAttempts()];
        let found = findDeath(attempts(), options.apiKey, dismissed);
        if (found) {
          // Dead only when it lasts: one refused connection followed by accepted ones is a restart or
          // a listen backlog that overflowed, named as such; the case's own verdict stands.
          const backMs = await reconnects(options.receiver);
          if (backMs !== undefined) {
            for (const m of attempts()) if (m.attempt.outcome === 'connect_refused') dismissed.add(m.attempt);
            outcome = {
              ...outcome,
              reason: `${outcome.reason}; the receiver refused a connection during this case (${found.firstRefused}) but accepted connections again ${backMs} ms later: a restart or a listen backlog that overflowed, not a receiver that stayed down`,
            };
            found = undefined;
          }
        }
        if (probe && def.id !== 'tls' && !found) {
          outcome = await withLosses(outcome, ctx, probe, options.apiKey);
          if (budget.spent) outcome = notJudged(outcome, budget.what, overBudget, def.id);
        }
        death = found;
        if (death)
          outcome = {
            ...outcome,
            status: 'failed',
            reason: `the receiver stopped accepting connections during this case (${death.firstRefused}), after it had answered: ${death.lastAnswered}; it still refused every connection ${SUSTAINED_MS} ms later. ${outcome.reason}`,
          };
      }
      if (ran && ctx.stuck?.caseId === def.id && !budget.spent) {
        stuck ??= def.id;
        outcome = withStall(outcome, ctx.stuck.diagnosis);
      } else if (ran && outcome.status === 'failed' && !death && !connectionFailure && !budget.spent) {
        outcome = await withExperiments(outcome, ctx, options, diagnoses, def.id);
        // A receiver stuck on kept-open connections makes every later delivery wait the response
        // timeout: the run ends here with what was found, not minutes later.
        const found = [...diagnoses.values()].find((d) => d.diagnosis.kind === 'kept-open-connection');
        if (found) stuck ??= found.caseId;
      }
      // A case that ran and was cut short is not judged: it keeps the run from passing (exit 1).
      if (ran && outcome.status === 'skipped' && !overBudget.includes(def.id)) overBudget.push(def.id);
      if (outcome.guess) {
        // No experiment named the cause (or none ran): the case's own guess ends the reason.
        const { guess, ...rest } = outcome;
        outcome = { ...rest, reason: `${rest.reason}. ${guess.text}` };
      }
      if (options.failFast && outcome.status === 'failed' && !stopped) stopped = def.id;
      const trace: CaseTrace | undefined = ran
        ? { notifications: tracedNotifications(ctx.caseRecords(), startedMs), probe: probe?.readings() ?? [] }
        : undefined;
      const result: CaseResult = {
        id: def.id,
        title: def.title,
        status: outcome.status,
        reason: outcome.reason,
        evidence: outcome.evidence ?? [],
        rule: def.rule,
        fix: outcome.fix ?? def.fix,
        durationMs: Math.round(performance.now() - t0),
        ...(outcome.timing ? { timing: outcome.timing } : {}),
        ...(outcome.experiments ? { experiments: outcome.experiments } : {}),
        ...(trace ? { trace } : {}),
      };
      results.push(result);
      listener.caseEnd?.(result, i + 1, selected.length);
    }
  } finally {
    ctx.finish();
    await ctx.close();
    await probe?.close();
  }
  const count = (s: CaseResult['status']) => results.filter((r) => r.status === s).length;
  const causes = groupCauses(results, ctx.measured, options.apiKey, death, (answer) => {
    const found = diagnoses.get(answer)?.diagnosis;
    return found?.finding ? found : undefined;
  });
  return {
    receiver: options.receiver,
    passed: count('passed'),
    failed: count('failed'),
    warned: count('warned'),
    skipped: count('skipped'),
    cases: results,
    causes,
    seed: options.seed,
    ...(options.probe ? { probe: options.probe } : {}),
    probeDeadlineMs: options.probeDeadlineMs,
    responseTimeoutMs: options.responseTimeoutMs,
    durationMs: Math.round(performance.now() - started),
    ...(overBudget.length ? { skippedForBudget: overBudget } : {}),
  };
}

/**
 * A case the budget cut short (its attempts in flight cancelled, its probe readings stopped early):
 * what it saw is no verdict, so it is skipped as not judged, with what it had seen.
 */
function notJudged(outcome: Outcome, budget: string, overBudget: CaseId[], id: CaseId): Outcome {
  overBudget.push(id);
  return cutShort(
    outcome,
    `${budget} was spent while this case ran (its attempts in flight were cancelled, its waits cut short)`,
  );
}

/** A case whose attempts in flight the kit cancelled: skipped as not judged, with `why` and what it had seen. */
function cutShort(outcome: Outcome, why: string): Outcome {
  return {
    status: 'skipped',
    reason: `not judged: ${why}; what it had seen: ${outcome.reason}`,
    ...(outcome.evidence ? { evidence: outcome.evidence } : {}),
  };
}

/**
 * A case during which the stall watch (context.ts) found the receiver stuck on kept-open connections:
 * it fails with that finding and the flip that proved it; its attempts then in flight were cancelled.
 */
function withStall(outcome: Outcome, diagnosis: Diagnosis): Outcome {
  return {
    ...outcome,
    status: 'failed',
    reason: `a delivery got no answer for seconds. Found by experiment while it waited: ${diagnosis.finding}. Tried: ${trialsText(diagnosis.trials)}. The attempts then in flight were cancelled (each would have waited the whole response timeout); what the case had seen: ${outcome.reason}`,
    ...(diagnosis.fix ? { fix: diagnosis.fix } : {}),
    experiments: diagnosis.trials,
  };
}

/** Outcomes where the request reached the receiver: something to vary. */
const VARIABLE = new Set(['http_status', 'timeout', 'reset', 'invalid_response']);

/**
 * Diagnosis by experiment (experiments.ts) of a failed case: the first notification with your key it
 * did not acknowledge is varied one difference at a time; what flips is named in the reason, with
 * what was tried, and its fix replaces the catalogue's. One diagnosis per kind of refusal in a run: a
 * receiver that refuses everything is not experimented on in every case.
 */
async function withExperiments(
  outcome: Outcome,
  ctx: VerifyContext,
  options: ResolvedOptions,
  diagnoses: Map<string, { diagnosis: Diagnosis; caseId: string }>,
  caseId: string,
): Promise<Outcome> {
  if (options.experimentMs === 0) return outcome;
  const key = `Bearer ${options.apiKey}`;
  const record = ctx.caseRecords().find((r) => {
    const last = r.attempts.at(-1);
    return r.authorization === key && last && VARIABLE.has(last.outcome) && !acknowledged(last);
  });
  if (!record) return outcome;
  const baseline = record.attempts.at(-1)!;
  const signature = shortAnswer(baseline).replace(/ after \d+ ms.*$/, '');
  let known = diagnoses.get(signature);
  if (!known) {
    const deadline = Date.now() + Math.min(options.experimentMs, ctx.budget.left());
    const diagnosis = await diagnose(
      {
        url: record.url,
        gz: record.gz.bytes(),
        filename: record.filename,
        authorization: record.authorization,
        baseline,
        reference: ctx.referenceOf(record.bookingId),
      },
      {
        responseTimeoutMs: options.responseTimeoutMs,
        caPems: options.caPems,
        deadline,
        signal: ctx.budget.signal,
      },
    );
    // Cut short by the budget, a variation ends `interrupted`: what the rest would have shown is unknown.
    if (ctx.budget.spent)
      return {
        ...outcome,
        reason: `${outcome.reason} (the experiments on it were cut short by the run's --budget; nothing is concluded from them)`,
      };
    known = { diagnosis, caseId };
    diagnoses.set(signature, known);
  }
  const { diagnosis } = known;
  const experiments = { experiments: diagnosis.trials };
  if (!diagnosis.finding) return { ...outcome, ...(known.caseId === caseId ? experiments : {}) };
  const by = known.caseId === caseId ? '' : ` (the experiments of ${known.caseId})`;
  // A finding other than the Content-Type replaces what the answer's text pointed at.
  const reason =
    diagnosis.kind === 'content-type'
      ? outcome.reason
      : outcome.reason.replace(/\. The answer points at .*$/, '');
  const tried = known.caseId === caseId ? ` Tried: ${trialsText(diagnosis.trials)}.` : '';
  // The case's guess stands only where the experiment confirms it.
  const { guess, ...found } = outcome;
  const confirmed =
    guess && diagnosis.variation && guess.confirmedBy.includes(diagnosis.variation) ? `. ${guess.text}` : '';
  return {
    ...found,
    reason: `${reason}${confirmed}. Found by experiment${by}: ${diagnosis.finding}.${tried}`,
    ...(diagnosis.fix && diagnosis.kind !== 'content-type' ? { fix: diagnosis.fix } : {}),
    ...(known.caseId === caseId ? experiments : {}),
  };
}

/**
 * Adds what the loss check found (losses.ts): a case that passed fails when a notification it got a
 * 200 for was not recorded; a failed one is re-worded when recording stopped (its own symptom follows).
 */
async function withLosses(
  outcome: Outcome,
  ctx: VerifyContext,
  probe: Probe,
  apiKey: string,
): Promise<Outcome> {
  let loss: Loss | undefined;
  try {
    loss = await findLosses(ctx, probe, apiKey);
  } catch (err) {
    return {
      ...outcome,
      reason: `${outcome.reason} (the loss check could not run: ${toEmulatorError(err).message})`,
    };
  }
  if (!loss) return outcome;
  const evidence = [...loss.evidence, ...(outcome.evidence ?? [])];
  if (outcome.status !== 'failed')
    return { ...outcome, status: 'failed', reason: loss.reason, evidence, fix: loss.fix };
  if (loss.fix !== STALL_FIX) return outcome;
  return {
    ...outcome,
    reason: `${loss.reason}. What this case saw: ${outcome.reason}`,
    evidence,
    fix: loss.fix,
  };
}

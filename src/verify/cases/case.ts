/** What a case is: its public id and wording, and how it runs. */
import { CANCELLED } from '../../delivery/attempt/deadline.js';
import { MAX_REDELIVERIES, type NotificationRecord } from '../../delivery/index.js';
import type { VerifyContext } from '../context.js';
import {
  acknowledged,
  consequence,
  evidenceOf,
  fixForAnswer,
  OVER_CAP_WARNING,
  overCap,
  pointedCause,
  shortAnswer,
} from '../evidence.js';
import type { Variation } from '../experiments.js';
import type { ResolvedOptions } from '../options.js';
import type { Probe } from '../probe.js';
import type { CaseId, CaseResult, CaseStatus, Evidence } from '../types.js';

/** What a case's run answers; the runner adds id, title, rule, fix and the duration. */
export interface Outcome {
  status: CaseStatus;
  reason: string;
  evidence?: Evidence[];
  timing?: CaseResult['timing'];
  /** The fix that fits what was observed, when it is not the case's usual one. */
  fix?: string;
  /** The variations the experiments sent after the case failed (runner.ts). */
  experiments?: CaseResult['experiments'];
  /**
   * What the case guessed from its own sends (e.g. which trait of a body was refused alone): it ends
   * the reason unless the experiments found another cause (runner.ts), which it would blur.
   */
  guess?: Guess;
}

/** A case's own guess at a cause, and the classes of experiment finding that confirm it. */
export interface Guess {
  text: string;
  /** A body finding of one of these classes confirms the guess: it stays, before the finding. */
  confirmedBy: readonly Variation[];
}

/** What a case runs with. */
export interface CaseInput {
  ctx: VerifyContext;
  options: ResolvedOptions;
  /** Present when --probe was given. */
  probe: Probe | undefined;
}

export interface CaseDefinition {
  id: CaseId;
  title: string;
  /** The rule of the specification (section, rule) the case checks. */
  rule: string;
  /** How to make a failing receiver pass. */
  fix: string;
  /** Skipped without --probe. */
  needsProbe?: boolean;
  run(input: CaseInput): Promise<Outcome>;
}

/**
 * Emulator time between two events of one case: enough for a later UpdateDate (a second) and the
 * filename's time to change, short enough that bodies stay minutes old (VerifyContext).
 */
export const STEP_MS = 2_000;

export const passed = (reason: string, evidence: Evidence[] = []): Outcome => ({
  status: 'passed',
  reason,
  evidence,
});
export const failed = (reason: string, evidence: Evidence[] = []): Outcome => ({
  status: 'failed',
  reason,
  evidence,
});
export const warned = (reason: string, evidence: Evidence[] = []): Outcome => ({
  status: 'warned',
  reason,
  evidence,
});

/**
 * How a receiver orders two notifications of one booking (docs/verify.md "The tie rule"): written
 * once, quoted by every fix that needs it, so no two fixes contradict each other.
 */
export const TIE_RULE =
  'a byte-identical body is a duplicate (answer 200, change nothing); a newer UpdateDate wins; the same UpdateDate with another BookingStatus is not a duplicate: the later lifecycle state wins (Issued, then Issued-Exch, then Exchanged or Voided)';

/** Attempt outcomes that mean the request got to the receiver (it answered, late, or broke off). */
const REACHED = new Set(['http_status', 'timeout', 'reset', 'invalid_response']);

/** Whether the last attempt of a notification reached the receiver at all. */
export function reached(record: NotificationRecord): boolean {
  const a = record.attempts.at(-1);
  return a !== undefined && (REACHED.has(a.outcome) || cancelledUnanswered(a));
}

/**
 * An attempt the kit cancelled after its request was out, unanswered (the stall watch, context.ts):
 * it reached the receiver, which had not answered it, as a timeout would have shown.
 */
function cancelledUnanswered(a: { outcome: string; message: string }): boolean {
  return (
    a.outcome === 'interrupted' &&
    a.message.startsWith(CANCELLED) &&
    !a.message.startsWith(`${CANCELLED} (while connecting)`)
  );
}

/**
 * As the provider does: what was not acknowledged comes back in the next batches, up to 4 times.
 * Runs those batches (stopping early once every notification of `ids` is acknowledged).
 */
export async function redeliverUnacknowledged(ctx: VerifyContext, ids: readonly string[]): Promise<void> {
  const unacknowledged = () => ids.some((id) => !acknowledged(ctx.record(id).attempts.at(-1)));
  for (let batch = 0; batch < MAX_REDELIVERIES && unacknowledged(); batch++) await ctx.nextBatch();
}

/**
 * The usual verdict: every notification's last attempt answered exactly 200. `what` names each one
 * in the reason (e.g. "the Issue").
 */
export function judgeAcknowledged(
  items: ReadonlyArray<{ record: NotificationRecord; what: string }>,
  apiKey: string,
  /** The case's own fix explains any HTTP refusal of this body (a size limit, a date check, …). */
  ownFixForStatus = false,
): Outcome {
  const evidence = items.map(({ record }) => evidenceOf(record, apiKey));
  const refused = items.filter(({ record }) => !acknowledged(record.attempts.at(-1)));
  if (refused.length === 0) {
    const times = items.map(({ record }) => Math.round(record.attempts.at(-1)!.durationMs));
    const capped = items.filter(({ record }) => overCap(record.attempts.at(-1)));
    if (capped.length > 0)
      return warned(`${capped.map(({ what }) => what).join(', ')}: ${OVER_CAP_WARNING}`, evidence);
    return passed(
      items.length === 1
        ? `answered 200 in ${times[0]} ms`
        : `answered 200 to each (${items.map(({ what }, i) => `${what} in ${times[i]} ms`).join(', ')})`,
      evidence,
    );
  }
  const first = refused[0]!.record.attempts.at(-1);
  const list = refused
    .map(({ record, what }) => `${what}: ${shortAnswer(record.attempts.at(-1))}`)
    .join('; ');
  const pointed = pointedCause(first);
  const fix =
    ownFixForStatus && first?.outcome === 'http_status' && !pointed ? undefined : fixForAnswer(first);
  return {
    ...failed(
      `${list}. ${capitalize(consequence(first))}${pointed ? `. The answer points at ${pointed.what}` : ''}`,
      evidence,
    ),
    ...(fix ? { fix } : {}),
  };
}

export function capitalize(text: string): string {
  return text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text;
}

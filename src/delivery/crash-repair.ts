import { batchesBetween } from '../clock/schedule.js';
import { acknowledges } from '../model/acknowledgement.js';
import type { ChangeSink } from '../model/change-sink.js';
import type { BatchResult } from './batches.js';
import { type Attempt, countedAttempts, MAX_ATTEMPTS } from './notification.js';
import type { Outbox } from './outbox.js';
import { type OutboxChange, type Settled, settledOf } from './outbox-state.js';

/**
 * Ends what a crash cut off (a data dir read back, src/store/persistent-state.ts), as changes like any other writer's (kept, applied by the outbox's state,
 * heard): each attempt that started and never ended becomes an `interrupted_by_crash` attempt (it
 * counts toward the 5: the receiver may have got it), the notification stays pending unless that was
 * its fifth (exhausted) or a cancel waited for its end (cancelled, decision 0224); a batch that started and never ended gets its result, counted from the attempts that
 * carry its instant. Answers how many attempts it ended.
 */
export function repairCrash(outbox: Outbox, changes: ChangeSink<OutboxChange>, atIso: string): number {
  const { state } = outbox;
  let interrupted = 0;
  for (const [id, s] of [...state.started]) {
    const n = outbox.get(id);
    if (n?.state !== 'pending') {
      state.started.delete(id);
      continue;
    }
    const attempt: Attempt = {
      ...s,
      number: n.attempts.length + 1,
      finishedAt: s.startedAt,
      durationMs: 0,
      outcome: 'interrupted_by_crash',
      message: `the emulator stopped while this attempt was in flight (found at the restart of ${atIso}); whether the receiver got it is unknown: delivery is at-least-once across a restart, as the provider's`,
    };
    const settled: Settled = { ...settledOf(n), lastFinishedMs: Date.parse(s.startedAt) };
    if (countedAttempts({ attempts: [...n.attempts, attempt] }) >= MAX_ATTEMPTS) {
      settled.state = 'exhausted';
      settled.exhaustedAt = s.startedAt;
    } else if (n.cancelWhenSettled) {
      // A resend or a deleted credential asked for it to stop once this attempt ended (decision 0224).
      settled.state = 'cancelled';
      settled.cancelledAt = s.startedAt;
      settled.cancelReason = n.cancelWhenSettled;
    }
    changes.emitMade({ kind: 'attempt_ended', notification: n, attempt, settled }, state);
    interrupted++;
  }
  const at = state.batchRunning;
  if (at !== undefined)
    changes.emitMade({ kind: 'batch_done', result: interruptedBatch(at, outbox.list(), atIso) }, state);
  return interrupted;
}

/** The result of a batch a crash cut off, counted from the attempts that carry its instant. */
function interruptedBatch(
  at: string,
  notifications: Iterable<{
    attempts: readonly { batchAt?: string | undefined; outcome: string; statusCode?: number | undefined }[];
    state: string;
  }>,
  restartIso: string,
): BatchResult {
  const result: BatchResult = {
    at,
    attempted: 0,
    delivered: 0,
    failed: 0,
    exhausted: 0,
    reason: `interrupted: the emulator stopped while this batch ran (found at the restart of ${restartIso}); its attempts in flight are recorded with outcome interrupted_by_crash`,
  };
  for (const n of notifications) {
    const a = n.attempts.find((x) => x.batchAt === at);
    if (!a) continue;
    result.attempted++;
    if (acknowledges(a)) result.delivered++;
    else result.failed++;
    if (n.state === 'exhausted' && n.attempts.at(-1) === a) result.exhausted++;
  }
  return result;
}

/**
 * Batch instants that passed while the emulator was down, from `fromMs` (its data dir's last record)
 * to `nowMs` (the restart): the latest runs now, the earlier ones are recorded as skipped with the
 * reason. Never silently lost. Answers the latest and how many passed, or undefined when none did.
 */
export function catchUpBatches(
  outbox: Outbox,
  fromMs: number,
  nowMs: number,
): { latest: string; missed: number } | undefined {
  const missed = batchesBetween(fromMs, nowMs);
  const latestMs = missed.pop();
  if (latestMs === undefined) return undefined;
  const latest = new Date(latestMs).toISOString();
  const down = `the emulator was not running at this instant (its data dir's last record before it is at ${new Date(fromMs).toISOString()}, restarted at ${new Date(nowMs).toISOString()} emulator time)`;
  for (const at of missed)
    outbox.recordSkipped(new Date(at), `${down}; the catch-up batch of ${latest} retried what was due`);
  void outbox.runBatch(new Date(latestMs));
  return { latest, missed: missed.length + 1 };
}

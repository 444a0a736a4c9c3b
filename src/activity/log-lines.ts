import { MAX_ATTEMPTS } from '../delivery/notification.js';
import type { Logger } from '../log.js';
import { acknowledges } from '../model/acknowledgement.js';
import type { ActivityBus } from './bus.js';
import type { Activity } from './types.js';

/** A log line of one activity: the fields of its JSON line and its message. */
export interface ActivityLine {
  fields: Record<string, unknown>;
  msg: string;
}

/**
 * Writes one info line per activity (event, attempt, batch, GetAccessToken call, admin change,
 * clock move) through `log`. Subscribes only when `log` has info enabled, so a quieter level costs
 * the hot paths nothing.
 */
export function logActivity(
  bus: ActivityBus,
  log: Logger,
  /** The clock's mode: any but `real` marks the times a line names as emulator time. */
  clockMode = 'real',
): () => void {
  if (!log.isLevelEnabled('info')) return () => {};
  return bus.subscribe((activity) => {
    const line = activityLine(activity, clockMode);
    if (line) log.info(line.fields, line.msg);
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * ` (emulator time, manual clock)` after a time a line names, when the clock is not the wall clock:
 * a reader comparing it with their own watch must know it is not theirs.
 */
const emulatorMark = (clockMode: string) =>
  clockMode === 'real' ? '' : ` (emulator time, ${clockMode} clock)`;

/**
 * The line of one activity, e.g. `n-000001 attempt 1/5 → 200 in 12 ms (credential main, BookingNumber
 * 4EDZPM) https://…/reportbo`; none for a created notification (the event's line names it, its
 * attempt's line follows) or an empty batch. `clockMode` other than `real` marks times as emulator time.
 */
export function activityLine(a: Activity, clockMode = 'real'): ActivityLine | undefined {
  const mark = emulatorMark(clockMode);
  switch (a.kind) {
    case 'event': {
      const showStatus = a.reservations.length > 1 || a.event === 'Redeliver';
      const what = a.reservations
        .map((r) => `${r.bookingNumber} BookingID ${r.bookingId}${showStatus ? ` (${r.status})` : ''}`)
        .join(', ');
      const count = a.notifications.length;
      const extra = count === a.routedTo ? '' : `, ${plural(count, 'notification')}`;
      const names = a.credentials.length ? ` (${a.credentials.join(', ')}${extra})` : '';
      const when = mark ? ` at ${a.at}${mark}` : '';
      return {
        fields: {
          kind: 'event',
          event: a.event,
          bookingIds: a.reservations.map((r) => r.bookingId),
          credentials: a.credentials,
        },
        msg: `${a.event} ${what}${when} → ${plural(a.routedTo, 'credential')}${names}`,
      };
    }
    case 'notification_created':
      return undefined;
    case 'attempt': {
      const { notification: n, attempt: t } = a;
      const ok = acknowledges(t);
      const result = t.outcome === 'http_status' ? String(t.statusCode) : t.outcome;
      const trigger = t.trigger === 'first' ? '' : t.trigger === 'batch' ? ' (batch)' : ' (retry now)';
      const tail = ok ? '' : ` [${n.state}] ${t.message}`;
      return {
        fields: {
          kind: 'attempt',
          id: n.id,
          attempt: t.number,
          trigger: t.trigger,
          outcome: t.outcome,
          statusCode: t.statusCode,
          outageId: t.outageId,
          durationMs: t.durationMs,
          url: n.url,
          credentialId: n.credentialId,
          bookingNumber: n.bookingNumber,
          state: n.state,
          ok,
        },
        msg: `${n.id} attempt ${t.number}/${MAX_ATTEMPTS}${trigger} → ${result} in ${t.durationMs} ms (credential ${n.credentialId}, BookingNumber ${n.bookingNumber}) ${n.url}${tail}`,
      };
    }
    case 'batch': {
      const b = a.batch;
      // A batch with nothing due is no news (a compressed clock runs one every hourMs); the clock
      // move that crossed it says how many ran.
      if (b.attempted === 0) return undefined;
      return {
        fields: { kind: 'batch', ...b },
        msg: `redelivery batch at ${b.at}${mark}: ${b.attempted} attempted, ${b.delivered} delivered, ${b.failed} failed, ${b.exhausted} exhausted`,
      };
    }
    case 'clock':
      return {
        fields: { kind: 'clock', from: a.from, to: a.to, batches: a.batches.length },
        msg: `clock moved ${a.from} → ${a.to}${mark}, ${a.batches.length} batch${a.batches.length === 1 ? '' : 'es'} run`,
      };
    case 'token': {
      const e = a.entry;
      const result = e.fault
        ? `fault ${e.fault.kind} (${e.fault.id})`
        : e.outcome === 'ok'
          ? 'ok'
          : `${e.transactionCode ?? ''} ${e.outcome}`.trim();
      const ok = e.outcome === 'ok' && !e.fault;
      return {
        fields: {
          kind: 'token',
          version: e.version,
          variant: e.variant,
          username: e.username,
          outcome: e.outcome,
          transactionCode: e.transactionCode,
          httpStatus: e.httpStatus,
          ok,
        },
        msg: `GetAccessToken ${e.version} ${e.variant} ${e.username ?? '(no user)'} → ${result} (HTTP ${e.httpStatus})`,
      };
    }
    case 'refused':
      return {
        fields: {
          kind: 'refused',
          method: a.method,
          path: a.path,
          status: a.status,
          code: a.code,
          ok: false,
        },
        msg: `admin call refused: ${a.method} ${a.path} → ${a.status} ${a.code}: ${a.message}`,
      };
    case 'admin':
      return {
        fields: { kind: 'admin', change: a.change, subject: a.subject },
        msg: [a.change.replace('_', ' '), a.subject, a.detail].filter(Boolean).join(' '),
      };
  }
}

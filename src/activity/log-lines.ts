import type { JournalEntry } from '../auth/journal.js';
import { asciiJson, type Logger, type LogOutput } from '../log.js';
import type { ActivityBus } from './bus.js';
import type { Activity } from './types.js';

/** A log line of one activity: the fields of its JSON line and its message. */
export interface ActivityLine {
  fields: Record<string, unknown>;
  msg: string;
}

/**
 * Writes one info line per activity (event, attempt, batch, GetAccessToken call, admin change,
 * clock move). Subscribes only when `log` has info enabled, so a quieter level costs the hot paths
 * nothing. The lines go to `output` when the emulator made its logger on one (its fast path), else
 * through `log` (a logger given by the embedder).
 */
export function logActivity(
  bus: ActivityBus,
  log: Logger,
  output?: LogOutput,
  /** The clock's mode: any but `real` marks the times a line names as emulator time. */
  clockMode = 'real',
): () => void {
  if (!log.isLevelEnabled('info')) return () => {};
  const write = output
    ? (line: ActivityLine) => output.info(line.fields, line.msg)
    : (line: ActivityLine) => log.info(line.fields, line.msg);
  const json = output?.format === 'json' ? output : undefined;
  return bus.subscribe((activity) => {
    if (json && activity.kind === 'token') return json.members(tokenJson(activity.entry));
    const line = activityLine(activity, clockMode);
    if (line) write(line);
  });
}

/**
 * The JSON members (message last) of a GetAccessToken call's line, the same as `activityLine` gives
 * (a test keeps them equal), written out directly: this line is logged on every call of the hottest
 * path, and through the generic path it cost ~4 µs of a ~45 µs request (decision 0034).
 * All values but the username are the emulator's own enum values and numbers, which need no escaping.
 */
export function tokenJson(e: JournalEntry): string {
  const ok = e.outcome === 'ok' && !e.fault;
  const result = e.fault
    ? `fault ${e.fault.kind} (${e.fault.id})`
    : ok
      ? 'ok'
      : `${e.transactionCode ?? ''} ${e.outcome}`.trim();
  const user = e.username === null ? 'null' : asciiJson(JSON.stringify(e.username));
  const name = e.username === null ? '(no user)' : user.slice(1, -1);
  const code = e.transactionCode === null ? 'null' : `"${e.transactionCode}"`;
  return `"kind":"token","version":"${e.version}","variant":"${e.variant}","username":${user},"outcome":"${e.outcome}","transactionCode":${code},"httpStatus":${e.httpStatus},"ok":${ok},"msg":"GetAccessToken ${e.version} ${e.variant} ${name} \\u2192 ${result} (HTTP ${e.httpStatus})"`;
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
      const ok = t.outcome === 'http_status' && t.statusCode === 200;
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
        msg: `${n.id} attempt ${t.number}/5${trigger} → ${result} in ${t.durationMs} ms (credential ${n.credentialId}, BookingNumber ${n.bookingNumber}) ${n.url}${tail}`,
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

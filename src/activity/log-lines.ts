import type { JournalEntry } from '../auth/journal.js';
import { MAX_ATTEMPTS } from '../delivery/notification.js';
import type { Logger } from '../log.js';
import { acknowledges } from '../model/acknowledgement.js';
import type { ActivityBus } from './bus.js';
import { attemptSummary, LineBudget, tokenSummary } from './condense.js';
import type { Activity } from './types.js';

/** A log line of one activity: the fields of its JSON line, its message and its level. */
export interface ActivityLine {
  fields: Record<string, unknown>;
  msg: string;
  /** `warn` for an attempt that exhausted its notification; `info` otherwise. */
  level?: 'info' | 'warn';
}

export interface ActivityLogOptions {
  /** The clock's mode: any but `real` marks the times a line names as emulator time. */
  clockMode?: string;
  /** The emulator's origin (`http://127.0.0.1:8080`), read when a line is written: attempt lines link to the inspector. */
  origin?: () => string;
  /**
   * At most this many GetAccessToken lines and this many attempt lines a second (successes and
   * failures each), then one summary line for the rest of the second; 0: every line (decision 0140).
   */
  linesPerSecond?: number;
}

/**
 * Writes one line per activity (event, attempt, batch, GetAccessToken call, admin change, clock move)
 * through `log`: info lines, and a warn line for an attempt that exhausts its notification. With
 * info off it listens only when warn is on, for those warn lines; with warn off it does not subscribe,
 * so a quiet level costs the hot paths nothing. Token and attempt lines are condensed past
 * `linesPerSecond` (see condense.ts). An attempt line waits for the line of the event that created
 * its notification when that event is still being announced, so the event reads first. Returns a
 * function that writes any summary still held and stops listening.
 */
export function logActivity(bus: ActivityBus, log: Logger, options: ActivityLogOptions = {}): () => void {
  const infoOn = log.isLevelEnabled('info');
  if (!infoOn && !log.isLevelEnabled('warn')) return () => {};
  const { clockMode = 'real', origin = () => '', linesPerSecond = 0 } = options;
  const write = (line: ActivityLine) => {
    if (line.level === 'warn') log.warn(line.fields, line.msg);
    else log.info(line.fields, line.msg);
  };
  // Only successes are condensed (decision 0210): a refused call or a failed attempt always has its line.
  const tokens = new LineBudget(linesPerSecond, (s) =>
    log.info({ kind: 'token', condensed: s, ok: true }, tokenSummary(s)),
  );
  const attempts = new LineBudget(linesPerSecond, (s) =>
    log.info({ kind: 'attempt', condensed: s, ok: true }, attemptSummary(s)),
  );
  // A condensed line is only counted: the budget is asked before the line is built.
  const writeAttempt = (a: Extract<Activity, { kind: 'attempt' }>) => {
    const { attempt: t } = a;
    // An exhausting attempt is never condensed: it is the line a person looks for.
    const exhausting = a.notification.state === 'exhausted';
    if (!exhausting && !attempts.admit(acknowledges(t))) return;
    const line = activityLine(a, clockMode, origin());
    if (line) write(line);
  };
  // Notifications whose event line is not written yet, and their attempts' lines waiting for it.
  const awaitingEvent = new Set<string>();
  let held: Array<Extract<Activity, { kind: 'attempt' }>> = [];
  let release: NodeJS.Immediate | undefined;
  const releaseHeld = () => {
    release = undefined;
    awaitingEvent.clear();
    const lines = held;
    held = [];
    for (const a of lines) writeAttempt(a);
  };
  const unsubscribe = bus.subscribe((activity) => {
    switch (activity.kind) {
      case 'notification_created':
        // The event that created it is announced in the same turn; an attempt that ends before that
        // waits for it (at most until the next turn, so nothing is held if no event line comes).
        awaitingEvent.add(activity.notification.id);
        release ??= setImmediate(releaseHeld);
        return;
      case 'attempt': {
        const exhausting = activity.notification.state === 'exhausted';
        if (!infoOn && !exhausting) return;
        if (awaitingEvent.has(activity.notification.id)) held.push(activity);
        else writeAttempt(activity);
        return;
      }
      case 'event': {
        if (infoOn) {
          const line = activityLine(activity, clockMode);
          if (line) write(line);
        }
        for (const id of activity.notifications) awaitingEvent.delete(id);
        const waiting = held.filter((a) => activity.notifications.includes(a.notification.id));
        if (waiting.length) {
          held = held.filter((a) => !waiting.includes(a));
          for (const a of waiting) writeAttempt(a);
        }
        return;
      }
      case 'token': {
        if (!infoOn) return;
        const e = activity.entry;
        if (!tokens.admit(tokenOk(e))) return;
        const line = activityLine(activity, clockMode);
        if (line) write(line);
        return;
      }
      case 'refused': {
        if (!infoOn) return;
        const line = activityLine(activity, clockMode);
        if (line) write(line);
        return;
      }
      default: {
        if (!infoOn) return;
        const line = activityLine(activity, clockMode);
        if (line) write(line);
      }
    }
  });
  return () => {
    unsubscribe();
    if (release) clearImmediate(release);
    releaseHeld();
    tokens.flush();
    attempts.flush();
  };
}

/** A GetAccessToken call that got its token: no fault applied and outcome `ok`. */
const tokenOk = (e: JournalEntry) => e.outcome === 'ok' && !e.fault;

/**
 * The inspector's permalink of a notification, in the dashboard's short form `#<id>` (it opens
 * `#notifications/<id>`), so an attempt line keeps its BookingNumber in 120 columns (decisions 0140, 0201).
 */
export const notificationLink = (origin: string, id: string) => `${origin}/__admin/ui#${id}`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * ` (emulator time, manual clock)` after a time a line names, when the clock is not the wall clock:
 * a reader comparing it with their own watch must know it is not theirs.
 */
const emulatorMark = (clockMode: string) =>
  clockMode === 'real' ? '' : ` (emulator time, ${clockMode} clock)`;

/**
 * The line of one activity, e.g. `n-000001 attempt 1/5 → 200 in 12 ms (credential main, BookingNumber
 * 4EDZPM) <origin>/__admin/ui#n-000001` (the receiver's URL without an `origin`); none
 * for a created notification (the event's line names it, its attempt's line follows) or an empty
 * batch. `clockMode` other than `real` marks times as emulator time. What a reader needs first comes
 * first and times come last, so the pretty format's cut at its width drops only what its time columns
 * already show.
 */
export function activityLine(a: Activity, clockMode = 'real', origin = ''): ActivityLine | undefined {
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
        msg: `${a.event} ${what} → ${plural(a.routedTo, 'credential')}${names}${when}`,
      };
    }
    case 'notification_created':
    case 'notification_changed':
    case 'attempt_started': // its end's line says it
    case 'notifications_dropped':
      return undefined;
    case 'attempt': {
      const { notification: n, attempt: t } = a;
      const ok = acknowledges(t);
      const result = t.outcome === 'http_status' ? String(t.statusCode) : t.outcome;
      const trigger = t.trigger === 'first' ? '' : t.trigger === 'batch' ? ' (batch)' : ' (retry now)';
      const tail = ok ? '' : ` [${n.state}] ${t.message}`;
      const link = origin ? notificationLink(origin, n.id) : undefined;
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
          reason: t.message,
          ...(link ? { link } : {}),
          ok,
        },
        msg: `${n.id} attempt ${t.number}/${MAX_ATTEMPTS}${trigger} → ${result} in ${t.durationMs} ms (credential ${n.credentialId}, BookingNumber ${n.bookingNumber}) ${link ?? n.url}${tail}`,
        ...(n.state === 'exhausted' ? { level: 'warn' as const } : {}),
      };
    }
    case 'batch': {
      const b = a.batch;
      // A batch with nothing due is no news (a compressed clock runs one every hourMs); the clock
      // move that crossed it says how many ran.
      if (b.attempted === 0) return undefined;
      return {
        fields: { kind: 'batch', ...b },
        msg: `redelivery batch: ${b.attempted} attempted, ${b.delivered} delivered, ${b.failed} failed, ${b.exhausted} exhausted, at ${b.at}${mark}`,
      };
    }
    case 'clock':
      return {
        fields: { kind: 'clock', from: a.from, to: a.to, batches: a.batches.length },
        msg: `clock moved to ${a.to}, ${a.batches.length} batch${a.batches.length === 1 ? '' : 'es'} run, from ${a.from}${mark}`,
      };
    case 'token': {
      const e = a.entry;
      const result = e.fault
        ? `fault ${e.fault.kind} (${e.fault.id})`
        : e.outcome === 'ok'
          ? 'ok'
          : `${e.transactionCode ?? ''} ${e.outcome}`.trim();
      const ok = tokenOk(e);
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

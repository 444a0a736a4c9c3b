import { Hono } from 'hono';
import { type NotificationRecord, toDetail, toSummary } from '../delivery/index.js';
import { fateSentence, resend, resendFailed, type StatusNow } from '../delivery/resend.js';
import type { Emulator } from '../emulator.js';
import { InputError, NotFoundError } from '../errors.js';
import { harLog, ndjsonLines } from './har.js';
import { mount } from './mount.js';
import { notificationQuery, scanNotifications } from './notification-query.js';

/** How long `wait=settled` waits when the query gives no `timeoutMs` (at most 300,000: the declaration's bound). */
const SETTLE_WAIT_DEFAULT_MS = 10_000;

/**
 * `GET /__admin/notifications[?state&credentialId&bookingId&wait=settled&timeoutMs]` and
 * `GET /__admin/notifications/:id` (its summary, its body as sent as `body.gz`, a retry now, a
 * resend), and `GET /__admin/notifications/export` (HAR 1.2 or NDJSON of the filtered list).
 * `wait=settled` holds the answer until no matching notification
 * has an attempt queued or running, so clients need no polling loop.
 */
export function notificationRoutes(emulator: Emulator): Hono {
  const { outbox } = emulator.delivery;
  // The notifications that resend `n`, oldest first (the outbox keeps them by original).
  const resentAs = (n: NotificationRecord): string[] => outbox.resendsOf(n.id).map((r) => r.id);
  const statusNow: StatusNow = (bookingId) => emulator.reservations.stored(bookingId)?.record.status;
  return mount(new Hono(), {
    // Before getNotification: /notifications/export is not a notification id.
    exportNotifications: (c, { query }) => {
      const { format = 'har', ...rest } = query;
      const { filter, matches } = notificationQuery(rest);
      const records = outbox.list(filter).filter(matches);
      const stamp = emulator.clock
        .now()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      const disposition = (ext: string) => `attachment; filename=reportbo-notifications-${stamp}.${ext}`;
      if (format === 'har') {
        return c.body(JSON.stringify(harLog(records), null, 1), 200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Disposition': disposition('har'),
        });
      }
      return c.body([...ndjsonLines(records, resentAs)].join(''), 200, {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': disposition('ndjson'),
      });
    },
    // The body exactly as sent (gzip), for `curl --data-binary @<file>` (the dashboard's "copy as curl").
    getNotificationBody: (c, { params }) => {
      const n = outbox.get(params.id);
      if (!n) throw new NotFoundError('notification_not_found', `No notification with id "${params.id}".`);
      return c.body(new Uint8Array(n.gz.bytes()), 200, {
        'Content-Type': 'application/gzip',
        'Content-Disposition': `attachment; filename=${n.filename}.gz`,
      });
    },
    listNotifications: async (c, { query }) => {
      const { wait, timeoutMs = SETTLE_WAIT_DEFAULT_MS, limit, before, ...filters } = query;
      const { filter, passes, search, extra } = notificationQuery(filters);
      let settled: boolean | undefined;
      if (wait === 'settled') {
        // The state filter selects what is listed, not what is waited for: a waited-for pending
        // notification may become delivered meanwhile.
        const { state: _state, ...waitFilter } = filter;
        settled = await outbox.waitSettled(waitFilter, timeoutMs);
      }
      const listed = outbox.list(filter);
      const retention = outbox.retention();
      const dropped = retention.dropped > 0 ? { retention } : {};
      const paged = limit !== undefined || before !== undefined;
      if (!extra && !paged) {
        const notifications = listed.map(toSummary);
        return settled === undefined ? { notifications, ...dropped } : { settled, notifications, ...dropped };
      }
      // A search or a page: a scan that yields, newest first, bounded by `limit`.
      const found = await scanNotifications(
        listed,
        extra ? { passes, search } : { passes: () => true, search: null },
        {
          ...(limit === undefined ? {} : { limit }),
          ...(before === undefined ? {} : { before }),
          signal: c.req.raw.signal,
        },
      );
      const notifications = found.records.map(toSummary);
      const page = paged ? { total: found.total, nextCursor: found.nextCursor } : {};
      return settled === undefined
        ? { notifications, ...page, ...dropped }
        : { settled, notifications, ...page, ...dropped };
    },
    // Retry now: one attempt outside the batch schedule (trigger "manual"); answers once it ended.
    retryNotification: async (_c, { params }) => {
      const n = await outbox.retryNow(params.id);
      return { attempt: n.attempts.at(-1)!, notification: toSummary(n) };
    },
    // Resend one notification (as sent or edited) to its credential or the ones named; a dry run
    // says what would happen to the original and which credentials get what.
    resendNotification: (_c, { params, body: input }) => {
      const done = resend(outbox, emulator.delivery.credentials, statusNow, params.id, input);
      const what = `${done.edited ? 'the edited body of ' : ''}${done.from}`;
      const to = done.dryRun
        ? `${what} would be sent to ${done.targets.map((t) => t.credentialId).join(', ')}`
        : `${what} sent again as ${done.notifications.map((n) => `${n.id} → ${n.credentialId}`).join(', ')}`;
      return {
        ...done,
        notifications: done.notifications.map(ref),
        message: `${to}; ${fateSentence(done.original)}.`,
      };
    },
    // Bulk retry: a credential's failed notifications since T, each taken once; dryRun counts them first.
    resendFailed: async (_c, { body: input }) => {
      const sinceMs = Date.parse(input.since);
      if (Number.isNaN(sinceMs)) {
        throw new InputError('invalid_resend', `since: "${input.since}" is not an ISO 8601 instant.`, {
          path: 'since',
        });
      }
      const done = await resendFailed(outbox, emulator.delivery.credentials, statusNow, {
        credentialId: input.credentialId,
        sinceMs,
        dryRun: input.dryRun === true,
      });
      return { ...done, resent: done.resent.map(ref) };
    },
    getNotification: (_c, { params }) => {
      const n = outbox.get(params.id);
      if (!n) throw new NotFoundError('notification_not_found', `No notification with id "${params.id}".`);
      return { ...toDetail(n), resentAs: resentAs(n) };
    },
  });
}

/** A notification as a bulk answer names it. */
export const ref = (n: NotificationRecord) => ({
  id: n.id,
  credentialId: n.credentialId,
  bookingId: n.bookingId,
  state: n.state,
});

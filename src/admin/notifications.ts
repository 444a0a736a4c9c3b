import { Hono } from 'hono';
import { type NotificationRecord, toDetail, toSummary } from '../delivery/index.js';
import { fateSentence, resend, resendFailed, type StatusNow } from '../delivery/resend.js';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { harPieces, ndjsonPieces, slicedBody } from './export.js';
import { mount } from './mount.js';
import { notificationQuery, scanNotifications } from './notification-query.js';
import { withLimit } from './paging.js';

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
      const { filter, passes, search } = notificationQuery(rest);
      const listed = outbox.list(filter);
      const stamp = emulator.clock
        .now()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      const signal = c.req.raw.signal;
      // Streamed in slices that yield (src/admin/export.ts): an export of 100,000 notifications never
      // holds the event loop, and stops when the client goes.
      const body = slicedBody(async (stopped) => {
        const { records } = await scanNotifications(listed, { passes, search }, { signal });
        return format === 'har'
          ? harPieces(records, stopped)
          : ndjsonPieces(records, (id) => outbox.resendsOf(id));
      }, signal);
      return c.body(body, 200, {
        'Content-Type':
          format === 'har' ? 'application/json; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': `attachment; filename=reportbo-notifications-${stamp}.${format}`,
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
      const { wait, timeoutMs = SETTLE_WAIT_DEFAULT_MS, limit, before, after, page: end, ...filters } = query;
      const { filter, passes, search } = notificationQuery(filters);
      let settled: boolean | undefined;
      if (wait === 'settled') {
        // The state filter selects what is listed, not what is waited for: a waited-for pending
        // notification may become delivered meanwhile.
        const { state: _state, ...waitFilter } = filter;
        settled = await outbox.waitSettled(waitFilter, timeoutMs);
      }
      const listed = outbox.list(filter);
      const retention = outbox.retention();
      const dropped = retention.dropped > 0 || retention.exhaustedKept > 0 ? { retention } : {};
      // Always a page (decision 0236): a scan that yields, newest first, so neither the answer nor
      // the time to make it grows with the notifications kept.
      const found = await scanNotifications(
        listed,
        { passes, search },
        { ...withLimit({ limit, before, after, page: end }), signal: c.req.raw.signal },
      );
      const page = {
        notifications: found.records.map(toSummary),
        total: found.total,
        nextCursor: found.nextCursor,
        newerCursor: found.newerCursor,
        ...dropped,
      };
      return settled === undefined ? page : { settled, ...page };
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
      const sinceMs = Date.parse(input.since); // its form and range checked by the route table
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

import { Hono } from 'hono';
import { toDetail, toSummary } from '../delivery/index.js';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { harLog, ndjsonLines } from './har.js';
import { mount } from './mount.js';
import { notificationQuery } from './notification-query.js';

/** How long `wait=settled` waits when the query gives no `timeoutMs` (at most 300,000: the declaration's bound). */
const SETTLE_WAIT_DEFAULT_MS = 10_000;

/**
 * `GET /__admin/notifications[?state&credentialId&bookingId&wait=settled&timeoutMs]` and
 * `GET /__admin/notifications/:id` (its summary, its body as sent as `body.gz`, a retry now), and
 * `GET /__admin/notifications/export` (HAR 1.2 or NDJSON of the filtered list). `wait=settled` holds the answer until no matching notification
 * has an attempt queued or running, so clients need no polling loop.
 */
export function notificationRoutes(emulator: Emulator): Hono {
  const { outbox } = emulator.delivery;
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
      return c.body([...ndjsonLines(records)].join(''), 200, {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': disposition('ndjson'),
      });
    },
    // The body exactly as sent (gzip), for `curl --data-binary @<file>` (the dashboard's "copy as curl").
    getNotificationBody: (c, { params }) => {
      const n = outbox.get(params.id);
      if (!n) throw new NotFoundError('notification_not_found', `No notification with id "${params.id}".`);
      return c.body(new Uint8Array(n.gz), 200, {
        'Content-Type': 'application/gzip',
        'Content-Disposition': `attachment; filename=${n.filename}.gz`,
      });
    },
    listNotifications: async (_c, { query }) => {
      const { wait, timeoutMs = SETTLE_WAIT_DEFAULT_MS, ...filters } = query;
      const { filter, matches, extra } = notificationQuery(filters);
      let settled: boolean | undefined;
      if (wait === 'settled') {
        // The state filter selects what is listed, not what is waited for: a waited-for pending
        // notification may become delivered meanwhile.
        const { state: _state, ...waitFilter } = filter;
        settled = await outbox.waitSettled(waitFilter, timeoutMs);
      }
      const listed = outbox.list(filter);
      const notifications = (extra ? listed.filter(matches) : listed).map(toSummary);
      return settled === undefined ? { notifications } : { settled, notifications };
    },
    // Retry now: one attempt outside the batch schedule (trigger "manual"); answers once it ended.
    retryNotification: async (_c, { params }) => {
      const n = await outbox.retryNow(params.id);
      return { attempt: n.attempts.at(-1)!, notification: toSummary(n) };
    },
    getNotification: (_c, { params }) => {
      const n = outbox.get(params.id);
      if (!n) throw new NotFoundError('notification_not_found', `No notification with id "${params.id}".`);
      return toDetail(n);
    },
  });
}

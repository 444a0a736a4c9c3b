import { Hono } from 'hono';
import { toDetail, toSummary } from '../delivery/index.js';
import type { Emulator } from '../emulator.js';
import { InputError, NotFoundError } from '../errors.js';
import { mount } from './mount.js';
import { notificationQuery, scanNotifications } from './notification-query.js';

/** How long `wait=settled` waits by default, and at most. */
export const SETTLE_WAIT_DEFAULT_MS = 10_000;
export const SETTLE_WAIT_MAX_MS = 300_000;
/** The most summaries one page (`limit`) holds. */
export const MAX_PAGE_LIMIT = 1000;

/**
 * `GET /__admin/notifications[?state&credentialId&bookingId&wait=settled&timeoutMs]` and
 * `GET /__admin/notifications/:id`. `wait=settled` holds the answer until no matching notification
 * has an attempt queued or running, so clients need no polling loop.
 */
export function notificationRoutes(emulator: Emulator): Hono {
  const { outbox } = emulator.delivery;
  return mount(new Hono(), {
    listNotifications: async (c) => {
      const q = c.req.query();
      const { filter, matches, extra } = notificationQuery(q);
      let settled: boolean | undefined;
      if (q.wait !== undefined) {
        if (q.wait !== 'settled') {
          throw new InputError('invalid_query', `wait: "${q.wait}" is not supported.`, {
            path: 'wait',
            accepted: ['settled'],
          });
        }
        const timeoutMs = q.timeoutMs === undefined ? SETTLE_WAIT_DEFAULT_MS : Number(q.timeoutMs);
        if (!Number.isInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > SETTLE_WAIT_MAX_MS) {
          throw new InputError(
            'invalid_query',
            `timeoutMs must be an integer from 0 to ${SETTLE_WAIT_MAX_MS}.`,
            { path: 'timeoutMs' },
          );
        }
        // The state filter selects what is listed, not what is waited for: a waited-for pending
        // notification may become delivered meanwhile.
        const { state: _state, ...waitFilter } = filter;
        settled = await outbox.waitSettled(waitFilter, timeoutMs);
      }
      const limit = q.limit === undefined ? undefined : pageLimit(q.limit);
      const listed = outbox.list(filter);
      const paged = limit !== undefined || q.before !== undefined;
      if (!extra && !paged) {
        const notifications = listed.map(toSummary);
        return settled === undefined ? { notifications } : { settled, notifications };
      }
      // A search or a page: a scan that yields, newest first, bounded by `limit`.
      const found = await scanNotifications(listed, extra ? matches : () => true, {
        ...(limit === undefined ? {} : { limit }),
        ...(q.before === undefined ? {} : { before: q.before }),
        signal: c.req.raw.signal,
      });
      const notifications = found.records.map(toSummary);
      const page = paged ? { total: found.total, nextCursor: found.nextCursor } : {};
      return settled === undefined ? { notifications, ...page } : { settled, notifications, ...page };
    },
    // Retry now: one attempt outside the batch schedule (trigger "manual"); answers once it ended.
    retryNotification: async (c) => {
      const n = await outbox.retryNow(c.req.param('id'));
      return { attempt: n.attempts.at(-1)!, notification: toSummary(n) };
    },
    getNotification: (c) => {
      const n = outbox.get(c.req.param('id'));
      if (!n)
        throw new NotFoundError('notification_not_found', `No notification with id "${c.req.param('id')}".`);
      return toDetail(n);
    },
  });
}

function pageLimit(text: string): number {
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new InputError(
      'invalid_query',
      `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}, got "${text}".`,
      {
        path: 'limit',
      },
    );
  }
  return limit;
}

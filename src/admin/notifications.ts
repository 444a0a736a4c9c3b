import { Hono } from 'hono';
import { toDetail, toSummary } from '../delivery/index.js';
import type { Emulator } from '../emulator.js';
import { InputError, NotFoundError } from '../errors.js';
import { mount } from './mount.js';
import { notificationQuery } from './notification-query.js';

/** How long `wait=settled` waits by default, and at most. */
export const SETTLE_WAIT_DEFAULT_MS = 10_000;
export const SETTLE_WAIT_MAX_MS = 300_000;

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
      const listed = outbox.list(filter);
      const notifications = (extra ? listed.filter(matches) : listed).map(toSummary);
      const retention = outbox.retention();
      return {
        ...(settled === undefined ? {} : { settled }),
        notifications,
        ...(retention.dropped > 0 ? { retention } : {}),
      };
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

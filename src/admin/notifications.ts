import { Hono } from 'hono';
import { toDetail, toSummary } from '../delivery/index.js';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { mount } from './mount.js';
import { notificationQuery } from './notification-query.js';

/** How long `wait=settled` waits when the query gives no `timeoutMs` (at most 300,000: the declaration's bound). */
const SETTLE_WAIT_DEFAULT_MS = 10_000;

/**
 * `GET /__admin/notifications[?state&credentialId&bookingId&wait=settled&timeoutMs]` and
 * `GET /__admin/notifications/:id`. `wait=settled` holds the answer until no matching notification
 * has an attempt queued or running, so clients need no polling loop.
 */
export function notificationRoutes(emulator: Emulator): Hono {
  const { outbox } = emulator.delivery;
  return mount(new Hono(), {
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

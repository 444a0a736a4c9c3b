import { Hono } from 'hono';
import { bulkRetry, type StatusNow } from '../delivery/resend.js';
import { triage } from '../delivery/triage.js';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { PAGE_LIMIT } from './contract/fields.js';
import { mount } from './mount.js';
import { ref } from './notifications.js';

/**
 * `POST /__admin/redelivery/run` (a batch now, at the current emulator time), `GET
 * /__admin/redelivery/batches`, and the failures grouped by cause: `GET /__admin/triage` and `POST
 * /__admin/triage/retry` (decision 0202).
 */
export function redeliveryRoutes(emulator: Emulator): Hono {
  const { outbox } = emulator.delivery;
  const statusNow: StatusNow = (bookingId) => emulator.reservations.stored(bookingId)?.record.status;
  return mount(new Hono(), {
    runRedelivery: async () => outbox.runBatch(emulator.clock.now()),
    listBatches: () => ({ batches: outbox.batches() }),
    // The largest groups: a receiver whose answers differ by more than numbers and ids makes one
    // group per notification (decision 0236).
    getTriage: async () => {
      const { groups, failing } = await triage(outbox);
      return { failing, groups: groups.slice(0, PAGE_LIMIT), groupCount: groups.length };
    },
    retryTriageGroup: async (_c, { body }) => {
      const { members } = await triage(outbox, body.key);
      if (members.length === 0) {
        throw new NotFoundError(
          'triage_group_not_found',
          `No failing notification in group "${body.key}" (retried or delivered since, or a key not from GET /__admin/triage).`,
        );
      }
      const done = await bulkRetry(
        outbox,
        emulator.delivery.credentials,
        statusNow,
        members,
        body.dryRun === true,
      );
      return { ...done, resent: done.resent.map(ref) };
    },
  });
}

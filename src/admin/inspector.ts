import { Hono } from 'hono';
import { exchangeOf } from '../api/index.js';
import { userView } from '../auth/users.js';
import type { AttemptOutcome, NotificationRecord } from '../delivery/index.js';
import type { Emulator } from '../emulator.js';
import { InputError, NotFoundError } from '../errors.js';
import { acknowledges } from '../model/acknowledgement.js';
import { harLog, ndjsonLines } from './har.js';
import { mount } from './mount.js';
import { notificationQuery } from './notification-query.js';
import { readJsonBody } from './read-json.js';

const EXPORT_FORMATS = ['har', 'ndjson'] as const;

/**
 * The delivery inspector's routes (docs/admin-api.md "Inspector"): edit a credential or a user in
 * place, export the filtered notifications as HAR 1.2 or NDJSON, delivery figures per credential,
 * and one GetAccessToken call with its request and response as they were.
 */
export function inspectorRoutes(emulator: Emulator): Hono {
  const { delivery } = emulator;
  return mount(new Hono(), {
    updateCredential: async (c) => {
      const changed = delivery.credentials.replace(c.req.param('id'), await readJsonBody(c));
      return changed;
    },
    updateUser: async (c) => {
      const changed = emulator.auth.users.replace(c.req.param('username'), await readJsonBody(c));
      return userView(changed);
    },
    exportNotifications: (c) => {
      const { format = 'har', ...rest } = c.req.query();
      if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
        throw new InputError(
          'invalid_query',
          `format: "${format}" is not one of ${EXPORT_FORMATS.join(', ')}.`,
          { path: 'format', accepted: EXPORT_FORMATS },
        );
      }
      const { filter, matches } = notificationQuery(rest);
      const records = delivery.outbox.list(filter).filter(matches);
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
    getNotificationBody: (c) => {
      const n = delivery.outbox.get(c.req.param('id'));
      if (!n)
        throw new NotFoundError('notification_not_found', `No notification with id "${c.req.param('id')}".`);
      return c.body(new Uint8Array(n.gz), 200, {
        'Content-Type': 'application/gzip',
        'Content-Disposition': `attachment; filename=${n.filename}.gz`,
      });
    },
    deliveryStats: () => {
      const nextBatchAt = emulator.clock.describe().nextBatchAt;
      const byId = new Map<string, ReturnType<typeof emptyStats>>();
      for (const credential of delivery.credentials.list())
        byId.set(credential.id, emptyStats(credential.id, true));
      for (const n of delivery.outbox.list()) {
        let s = byId.get(n.credentialId);
        if (!s) {
          s = emptyStats(n.credentialId, false);
          byId.set(n.credentialId, s);
        }
        count(s, n);
      }
      const credentials = [...byId.values()].map((s) => ({
        ...s,
        successRate: s.attempts === 0 ? null : s.successfulAttempts / s.attempts,
        nextBatchAt: s.pending > 0 ? nextBatchAt : null,
      }));
      return { credentials };
    },
    getRequest: (c) => {
      const id = c.req.param('id');
      const { journal } = emulator.auth;
      const entry = journal.list().find((e) => e.id === id);
      if (!entry) {
        throw new NotFoundError(
          'request_not_found',
          journal.enabled
            ? `No GetAccessToken call "${id}" in the journal (it keeps the last ${journal.capacity.toLocaleString('en-US')}; reset clears it).`
            : `No GetAccessToken call "${id}": the journal is off (${emulator.names.name('journalEntries')} is 0).`,
        );
      }
      return { ...entry, exchange: exchangeOf(entry) ?? null };
    },
  });
}

function emptyStats(credentialId: string, configured: boolean) {
  return {
    credentialId,
    /** false for a credential deleted since its notifications were made. */
    configured,
    notifications: 0,
    delivered: 0,
    pending: 0,
    exhausted: 0,
    cancelled: 0,
    attempts: 0,
    successfulAttempts: 0,
    lastFailure: null as null | {
      notificationId: string;
      attempt: number;
      at: string;
      outcome: AttemptOutcome;
      statusCode: number | null;
      message: string;
    },
  };
}

function count(s: ReturnType<typeof emptyStats>, n: NotificationRecord): void {
  s.notifications++;
  s[n.state]++;
  for (const a of n.attempts) {
    s.attempts++;
    if (acknowledges(a)) s.successfulAttempts++;
    else if (!s.lastFailure || a.finishedAt >= s.lastFailure.at) {
      s.lastFailure = {
        notificationId: n.id,
        attempt: a.number,
        at: a.finishedAt,
        outcome: a.outcome,
        statusCode: a.statusCode ?? null,
        message: a.message,
      };
    }
  }
}

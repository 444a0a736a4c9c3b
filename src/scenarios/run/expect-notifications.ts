import type { Notification, NotificationSummary } from '../../client/types.js';
import type { ExpectStep } from '../schema/index.js';
import { bindings, bookingId, type RunContext } from './context.js';
import { check, getPath, type Mismatch, resolve } from './match.js';
import type { ExpectationResult, NotificationEvidence } from './results.js';

type NotificationsExpect = NonNullable<ExpectStep['notifications']>;

/** Selects notifications (after deliveries in flight settle) and checks every listed field. */
export async function expectNotifications(
  ctx: RunContext,
  e: NotificationsExpect,
): Promise<ExpectationResult> {
  const { scope } = ctx.env;
  const select = {
    ...(e.booking === undefined ? {} : { bookingId: bookingId(ctx, e.booking) }),
    ...(e.credential === undefined ? {} : { credentialId: scope.credentialId(e.credential) }),
  };
  const { notifications } = await ctx.env.client.waitSettled(select);
  const matching = scope
    .ownNotifications(notifications)
    .filter((n) => e.bookingStatus === undefined || n.bookingStatus === e.bookingStatus)
    // Ids grow with creation: sorted by id is creation order, whatever order the list came in.
    .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  const selected =
    e.pick === 'first' ? matching.slice(0, 1) : e.pick === 'last' ? matching.slice(-1) : matching;
  const out: Mismatch[] = [];
  check(out, 'count', e.count, selected.length);
  if (e.credentials !== undefined) {
    const got = [...new Set(selected.map((n) => scope.scenarioCredentialId(n.credentialId)))].sort();
    check(out, 'credentials', [...e.credentials].sort(), got);
  }
  const needFull = e.outcome ?? e.statusCode ?? e.statusCodes ?? e.headers ?? e.body;
  const full: Array<NotificationSummary | Notification> =
    needFull === undefined
      ? selected
      : await Promise.all(selected.map((n) => ctx.env.client.getNotification(n.id)));
  const names = bindings(ctx);
  for (const n of full) {
    const at = (f: string) =>
      `${n.id} (${scope.scenarioCredentialId(n.credentialId)}, ${n.bookingStatus}).${f}`;
    check(out, at('state'), e.state, n.state);
    if ('attempts' in n) {
      check(out, at('attempts'), e.attempts, n.attempts.length);
      const last = n.attempts.at(-1);
      check(out, at('outcome'), e.outcome, last?.outcome);
      check(out, at('statusCode'), e.statusCode, last?.statusCode ?? null);
      check(
        out,
        at('statusCodes'),
        e.statusCodes,
        n.attempts.map((a) => a.statusCode ?? null),
      );
      for (const [h, m] of Object.entries(e.headers ?? {}))
        check(out, at(`headers.${h}`), resolve(m, names), headerValue(n.headers, h));
      for (const [p, m] of Object.entries(e.body ?? {}))
        check(out, at(`body.${p}`), resolve(m, names), getPath(n.body, p));
    } else {
      check(out, at('attempts'), e.attempts, n.attemptCount);
    }
    check(out, at('warnings'), e.warnings, n.warnings.length);
  }
  const what = [
    e.booking === undefined ? '' : `booking ${e.booking}`,
    e.credential === undefined ? '' : `credential ${e.credential}`,
    e.bookingStatus ?? '',
  ]
    .filter(Boolean)
    .join(', ');
  const name = `notifications${what ? ` (${what})` : ''}`;
  if (out.length === 0) return { name, passed: true, mismatches: out };
  return { name, passed: false, mismatches: out, notifications: await evidence(ctx, full) };
}

/** Every attempt of the notifications a failed expectation looked at: the why behind its state. */
async function evidence(
  ctx: RunContext,
  looked: Array<NotificationSummary | Notification>,
): Promise<NotificationEvidence[]> {
  const details = await Promise.all(
    looked.map((n) => ('attempts' in n ? n : ctx.env.client.getNotification(n.id))),
  );
  return details.map((n) => ({
    id: n.id,
    credential: ctx.env.scope.scenarioCredentialId(n.credentialId),
    bookingStatus: n.bookingStatus,
    state: n.state,
    attempts: n.attempts.map((a) => ({
      number: a.number,
      at: a.startedAt,
      outcome: a.outcome,
      statusCode: a.statusCode ?? null,
      message: a.message,
    })),
  }));
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

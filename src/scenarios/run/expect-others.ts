import type { ExpectStep } from '../schema/index.js';
import { bindings, bookingId, type RunContext } from './context.js';
import type { LoginResult } from './login.js';
import { check, getPath, type Mismatch, resolve } from './match.js';
import type { ExpectationResult } from './results.js';

const result = (name: string, out: Mismatch[]): ExpectationResult => ({
  name,
  passed: out.length === 0,
  mismatches: out,
});

/** Checks a reservation's status and exchange links. */
export async function expectReservation(
  ctx: RunContext,
  e: NonNullable<ExpectStep['reservation']>,
): Promise<ExpectationResult> {
  const r = await ctx.env.client.getReservation(bookingId(ctx, e.booking));
  const out: Mismatch[] = [];
  check(out, 'status', e.status, r.status);
  if (e.exchangedTo !== undefined) check(out, 'exchangedTo', bookingId(ctx, e.exchangedTo), r.exchangedTo);
  if (e.exchangedFrom !== undefined)
    check(out, 'exchangedFrom', bookingId(ctx, e.exchangedFrom), r.exchangedFrom);
  return result(`reservation ${e.booking}`, out);
}

/** Checks what a built-in receiver recorded, once deliveries in flight have settled. */
export async function expectReceiver(
  ctx: RunContext,
  e: NonNullable<ExpectStep['receiver']>,
): Promise<ExpectationResult> {
  await ctx.env.client.waitSettled();
  const receiver = ctx.env.receivers.get(e.name)!;
  const requests = receiver.requests;
  const names = bindings(ctx);
  const out: Mismatch[] = [];
  check(out, 'count', e.count, requests.length);
  const bodies = requests.map((r) => {
    try {
      return JSON.parse(r.body) as unknown;
    } catch {
      return undefined;
    }
  });
  requests.forEach((r, i) => {
    for (const [h, m] of Object.entries(e.headers ?? {}))
      check(out, `request ${r.index}.headers.${h}`, resolve(m, names), r.headers[h.toLowerCase()]);
    for (const [p, m] of Object.entries(e.body ?? {}))
      check(out, `request ${r.index}.body.${p}`, resolve(m, names), getPath(bodies[i], p));
  });
  if (e.bookingStatuses !== undefined)
    check(
      out,
      'bookingStatuses',
      e.bookingStatuses,
      bodies.map((b) => getPath(b, 'Reservation.BookingStatus')),
    );
  return result(`receiver ${e.name}`, out);
}

/** Checks the GetAccessToken journal. */
export async function expectRequests(
  ctx: RunContext,
  e: NonNullable<ExpectStep['requests']>,
): Promise<ExpectationResult> {
  const filter = {
    ...(e.version === undefined ? {} : { version: String(e.version) as '1.6' | '1.7' }),
    ...(e.variant === undefined ? {} : { variant: e.variant }),
    ...(e.username === undefined ? {} : { username: e.username }),
    ...(e.outcome === undefined ? {} : { outcome: e.outcome }),
  };
  const all = ctx.env.scope.ownRequests(await ctx.env.client.listRequests(filter));
  // The journal lists oldest first.
  const entries = e.pick === 'first' ? all.slice(0, 1) : e.pick === 'last' ? all.slice(-1) : all;
  const out: Mismatch[] = [];
  // An empty journal may be one that keeps nothing: say so instead of "0 calls".
  if (all.length === 0 && (await ctx.env.client.config()).journalEntries === 0) {
    out.push({
      field: 'journal',
      expected: 'a journal of GetAccessToken calls',
      actual:
        'the journal is off on this emulator (journalEntries 0: --journal-entries, REPORTBO_JOURNAL_ENTRIES)',
    });
    return result(`requests`, out);
  }
  check(out, 'count', e.count, entries.length);
  for (const r of entries) {
    const at = (f: string) => `${r.id} (${r.version} ${r.variant}).${f}`;
    if (e.transactionCode !== undefined)
      check(out, at('transactionCode'), e.transactionCode, r.transactionCode);
    const warnings = r.warnings.map((w) => (typeof w === 'string' ? w : JSON.stringify(w)));
    if (e.warning !== undefined && !warnings.some((w) => w.toLowerCase().includes(e.warning!.toLowerCase())))
      out.push({ field: at('warnings'), expected: { contains: e.warning }, actual: warnings });
    if (e.noWarnings) check(out, at('warnings'), [], warnings);
  }
  const what = Object.values(filter).join(' ');
  return result(`requests${what ? ` (${what})` : ''}`, out);
}

/** Checks the answer of a login step (inline `expect`, or a later `expect: login: {name}`). */
export function expectLogin(
  ctx: RunContext,
  name: string,
  got: LoginResult,
  e: NonNullable<ExpectStep['login']> | Omit<NonNullable<ExpectStep['login']>, 'name'>,
): ExpectationResult {
  const out: Mismatch[] = [];
  check(out, 'ok', e.ok, got.ok);
  check(out, 'status', e.status, got.status);
  if (e.transactionCode !== undefined) check(out, 'transactionCode', e.transactionCode, got.transactionCode);
  if (e.message !== undefined) check(out, 'message', { contains: e.message }, got.message);
  for (const [h, m] of Object.entries(e.headers ?? {}))
    check(out, `headers.${h}`, resolve(m, bindings(ctx)), got.headers[h.toLowerCase()]);
  return result(`login ${name}`, out);
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { EventResult } from '../../client/types.js';
import { parseDurationMs } from '../../clock/duration.js';
import { EmulatorError } from '../../errors.js';
import type { Step, StepKind } from '../schema/index.js';
import { bindings, bookingId, type RunContext } from './context.js';
import { expectNotifications } from './expect-notifications.js';
import { expectLogin, expectReceiver, expectRequests, expectReservation } from './expect-others.js';
import { stepKind } from './label.js';
import { login } from './login.js';
import { resolve } from './match.js';
import type { ExpectationResult } from './results.js';

/** What one step did: a line for progress output and the expectations it checked. */
export interface StepOutcome {
  detail?: string;
  expectations: ExpectationResult[];
}

/** A step that could not be carried out (not an expectation that failed). */
export class StepError extends EmulatorError {
  constructor(message: string) {
    super('scenario_step_failed', message, 500, 'internal');
  }
}

type Value<K extends StepKind> = Extract<Step, Record<K, unknown>>[K];
const none = (detail?: string): StepOutcome => ({ ...(detail ? { detail } : {}), expectations: [] });

function describeEvent(r: EventResult): string {
  const ids = r.reservations.map((x) => `${x.bookingId} ${x.bookingNumber} ${x.status}`).join('; ');
  return `${ids} → ${r.message}${r.warnings.length ? ` (warnings: ${r.warnings.join('; ')})` : ''}`;
}

/** Runs one step against the environment: the runner of its kind in STEP_RUNNERS. */
export function runStep(ctx: RunContext, step: Step): Promise<StepOutcome> {
  const kind = stepKind(step);
  const run = STEP_RUNNERS[kind] as (ctx: RunContext, value: unknown) => Promise<StepOutcome>;
  return run(ctx, (step as Record<StepKind, unknown>)[kind]);
}

/**
 * What each step kind does, one entry per kind of the scenario schema (src/scenarios/schema/steps.ts
 * STEP_KINDS): a new kind is one schema entry and one runner here; the type refuses a missing one.
 */
const STEP_RUNNERS: { [K in StepKind]: (ctx: RunContext, value: Value<K>) => Promise<StepOutcome> } = {
  async issue(ctx, value) {
    const v: NonNullable<Value<'issue'>> = value ?? {};
    const r = await ctx.env.client.emitEvent({
      type: 'Issue',
      ...(v.bookingId === undefined ? {} : { bookingId: v.bookingId }),
      ...(v.overrides === undefined
        ? {}
        : { overrides: resolve(v.overrides, bindings(ctx)) as Record<string, unknown> }),
      ...(v.seed === undefined ? {} : { seed: v.seed }),
    });
    const created = r.reservations[0];
    if (v.as && created) ctx.bookings.set(v.as, { ...created });
    return none(describeEvent(r));
  },
  async void(ctx, v) {
    return none(
      describeEvent(await ctx.env.client.emitEvent({ type: 'Void', bookingId: bookingId(ctx, v.booking) })),
    );
  },
  async exchange(ctx, v) {
    const old = bookingId(ctx, v.booking);
    const r = await ctx.env.client.emitEvent({
      type: 'Exchange',
      bookingId: old,
      ...(v.overrides ? { overrides: resolve(v.overrides, bindings(ctx)) as Record<string, unknown> } : {}),
    });
    const created = r.reservations.find((x) => x.bookingId !== old);
    if (v.as && created) ctx.bookings.set(v.as, { ...created });
    return none(describeEvent(r));
  },
  async redeliver(ctx, v) {
    return none(describeEvent(await ctx.env.client.redeliver(bookingId(ctx, v.booking), v.status)));
  },
  async advance(ctx, v) {
    // A first attempt still in flight would be skipped by the batch: let it finish, as time would.
    await settle(ctx);
    const { by, to } = v;
    const r = await ctx.env.client.advanceClock(
      by === undefined ? { to: to! } : { by: `PT${parseDurationMs(by) / 1000}S` },
    );
    return none(`${r.from} → ${r.to}, ${r.batches.length} batch${r.batches.length === 1 ? '' : 'es'}`);
  },
  async outage(ctx, v) {
    const { credential, ...window } = v;
    const { scope } = ctx.env;
    // On a shared emulator an outage of "every credential" covers the run's own credentials only.
    const targets =
      credential !== undefined ? [scope.credentialId(credential)] : (scope.ownCredentialIds ?? [undefined]);
    const added = [];
    for (const credentialId of targets)
      added.push(
        await ctx.env.client.addOutage({
          ...window,
          ...(credentialId === undefined ? {} : { credentialId }),
        }),
      );
    const o = added[0]!;
    const extent =
      o.attempts !== null
        ? `next ${o.attempts} attempt${o.attempts === 1 ? '' : 's'}`
        : `${o.from} → ${o.until ?? 'end of run'}`;
    return none(`${added.map((a) => a.id).join(', ')}: ${credential ?? 'every credential'}, ${extent}`);
  },
  async runBatch(ctx) {
    await settle(ctx);
    const r = await ctx.env.client.runRedelivery();
    return none(
      `attempted ${r.attempted}, delivered ${r.delivered}, failed ${r.failed}, exhausted ${r.exhausted}`,
    );
  },
  async login(ctx, v) {
    const base = String(v.version) === '1.7' ? ctx.env.basePath17 : ctx.env.basePath16;
    const got = await login(ctx.env.url, base, v);
    if (v.as) ctx.logins.set(v.as, got);
    const detail = `HTTP ${got.status}, ${got.ok ? 'token' : `code ${got.transactionCode ?? '(none)'}`}`;
    return {
      detail,
      expectations: v.expect ? [expectLogin(ctx, v.as ?? `${v.version} ${v.variant}`, got, v.expect)] : [],
    };
  },
  async wait(ctx, v) {
    if (v.for !== undefined) {
      await sleep(parseDurationMs(v.for));
      return none();
    }
    const timeoutMs = parseDurationMs(v.timeout);
    const r = await ctx.env.client.waitSettled({}, timeoutMs);
    if (r.settled === false) throw new StepError(`deliveries were still in flight after ${timeoutMs} ms`);
    return none(`${r.notifications.length} notifications settled`);
  },
  async waitFor(ctx, v) {
    return none(await waitFor(ctx, v));
  },
  async expect(ctx, e) {
    const results: ExpectationResult[] = [];
    if (e.notifications) results.push(await expectNotifications(ctx, e.notifications));
    if (e.reservation) results.push(await expectReservation(ctx, e.reservation));
    if (e.receiver) results.push(await expectReceiver(ctx, e.receiver));
    if (e.requests) results.push(await expectRequests(ctx, e.requests));
    if (e.login) results.push(expectLogin(ctx, e.login.name, ctx.logins.get(e.login.name)!, e.login));
    return { expectations: results };
  },
};

/** Waits until no delivery attempt is in flight. */
async function settle(ctx: RunContext): Promise<void> {
  const r = await ctx.env.client.waitSettled({}, SETTLE_TIMEOUT_MS);
  if (r.settled === false)
    throw new StepError(`deliveries were still in flight after ${SETTLE_TIMEOUT_MS} ms`);
}

const SETTLE_TIMEOUT_MS = 60_000;
const POLL_MS = 100;

/** Polls until an outside actor has done enough (N token calls, N notifications, N receiver hits). */
async function waitFor(ctx: RunContext, w: Value<'waitFor'>): Promise<string> {
  const timeoutMs = parseDurationMs(w.timeout);
  const deadline = Date.now() + timeoutMs;
  let what = '';
  for (;;) {
    let have = 0;
    let want = 0;
    if (w.requests) {
      const { count, version, ...rest } = w.requests;
      const q = { ...rest, ...(version === undefined ? {} : { version: String(version) as '1.6' | '1.7' }) };
      have = ctx.env.scope.ownRequests(await ctx.env.client.listRequests(q)).length;
      if (have === 0 && (await ctx.env.client.config()).journalEntries === 0)
        throw new StepError(
          'waitFor requests: the journal is off on this emulator (journalEntries 0: --journal-entries, REPORTBO_JOURNAL_ENTRIES); it counts no calls.',
        );
      want = count;
      what = `GetAccessToken calls${Object.values(q).length ? ` (${Object.values(q).join(' ')})` : ''}`;
    } else if (w.notifications) {
      const { count, booking, credential, state, bookingStatus } = w.notifications;
      const { notifications } = await ctx.env.client.allNotifications({
        ...(booking === undefined ? {} : { bookingId: bookingId(ctx, booking) }),
        ...(credential === undefined ? {} : { credentialId: ctx.env.scope.credentialId(credential) }),
        ...(state === undefined ? {} : { state }),
      });
      have = ctx.env.scope
        .ownNotifications(notifications)
        .filter((n) => bookingStatus === undefined || n.bookingStatus === bookingStatus).length;
      want = count;
      what = `notifications${state ? ` (${state})` : ''}`;
    } else if (w.receiver) {
      have = ctx.env.receivers.get(w.receiver.name)!.requests.length;
      want = w.receiver.count;
      what = `requests at receiver ${w.receiver.name}`;
    }
    if (have >= want) return `${have} ${what}`;
    if (Date.now() >= deadline)
      throw new StepError(`waitFor timed out after ${timeoutMs} ms: ${have} of ${want} ${what}`);
    await sleep(POLL_MS);
  }
}

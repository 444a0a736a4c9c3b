import { InputError } from '../../errors.js';
import type { BookingRef } from '../schema/index.js';
import type { ScenarioEnvironment } from './environment.js';
import type { LoginResult } from './login.js';
import type { Bindings } from './match.js';

/** What steps share while a scenario runs: where it runs and the names given with `as:`. */
export interface RunContext {
  readonly env: ScenarioEnvironment;
  /** `as:` name → `{bookingId, bookingNumber, status}` of a reservation. */
  readonly bookings: Map<string, Record<string, unknown>>;
  /** `as:` name → result of a login step. */
  readonly logins: Map<string, LoginResult>;
}

/** Names for `${…}` interpolation: reservations and logins alike. */
export function bindings(ctx: RunContext): Bindings {
  return new Map<string, Record<string, unknown>>([
    ...ctx.bookings,
    ...[...ctx.logins].map(([k, v]) => [k, v as unknown as Record<string, unknown>] as const),
  ]);
}

/** The BookingID a reference stands for. */
export function bookingId(ctx: RunContext, ref: BookingRef): number {
  if (typeof ref === 'number') return ref;
  const bound = ctx.bookings.get(ref);
  // The loader checks references, so this only fails for names bound by a step that errored.
  if (!bound) throw new InputError('unknown_booking', `no reservation was named "${ref}" by an earlier step`);
  return bound.bookingId as number;
}

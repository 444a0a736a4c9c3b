import { z } from 'zod';
import { bookingNumberProblem } from '../../delivery/prepare.js';
import { ApiVersion, AsName, BookingRef, BookingStatus, Duration, Instant } from './common.js';
import { ExpectStep, LOGIN_VARIANTS, LoginExpect, WaitForStep } from './expect.js';

const Overrides = z
  .record(z.string(), z.unknown())
  .superRefine((overrides, ctx) => {
    // Refused at load, not when the step runs: a BookingNumber the filename cannot carry (a
    // `${name}` reference is checked when it is resolved, by the event itself).
    const reservation = overrides.Reservation as Record<string, unknown> | undefined;
    const number = reservation?.BookingNumber;
    if (typeof number !== 'string' || number.includes('${')) return;
    const problem = bookingNumberProblem(number);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: ['Reservation', 'BookingNumber'],
        message: `BookingNumber ${problem}`,
      });
  })
  .describe('deep partial notification body, e.g. {Reservation: {PCCBook: AAA1}, Product: {IdWeb: 1001}}');

/**
 * Every step kind: its key in a step object and the schema of its value. A step is an object with
 * exactly one of these keys, plus an optional `name` shown in progress and reports.
 */
export const STEP_KINDS = {
  issue: z
    .strictObject({
      as: AsName.optional(),
      bookingId: z.number().int().positive().optional(),
      overrides: Overrides.optional(),
      seed: z.number().int().min(0).optional(),
    })
    .nullable()
    .describe('Issue event: creates a reservation (Issued) and notifies every matching credential'),
  void: z.strictObject({ booking: BookingRef }).describe('Void event on a reservation'),
  exchange: z
    .strictObject({ booking: BookingRef, as: AsName.optional(), overrides: Overrides.optional() })
    .describe('Exchange event: `as` names the new (Issued-Exch) reservation'),
  redeliver: z
    .strictObject({ booking: BookingRef, status: BookingStatus })
    .describe('manual redelivery with the chosen BookingStatus'),
  advance: z
    .strictObject({
      by: Duration.optional(),
      to: z.union([z.literal('next-batch'), Instant]).optional(),
    })
    .refine((a) => (a.by === undefined) !== (a.to === undefined), {
      message: 'expected exactly one of by (a duration) or to (an instant or next-batch)',
    })
    .describe('moves the manual clock, running every batch it crosses'),
  runBatch: z.strictObject({}).nullable().describe('runs a redelivery batch now'),
  outage: z
    .strictObject({
      credential: z.string().min(1).optional().describe('a credential id of this scenario; all when omitted'),
      attempts: z.number().int().min(1).optional().describe('fail the next N attempts'),
      from: Instant.optional().describe('window start, emulator time (default: now)'),
      until: Instant.optional().describe('window end, emulator time, exclusive'),
      for: Duration.optional().describe('window length instead of until, e.g. PT3H'),
      note: z.string().max(200).optional(),
    })
    .refine((o) => o.attempts === undefined || (o.from ?? o.until ?? o.for) === undefined, {
      message: 'expected either attempts or a window (from, until or for), not both',
    })
    .refine((o) => o.until === undefined || o.for === undefined, {
      message: 'expected either until or for, not both',
    })
    .describe(
      "simulated outage of the receiver: attempts in it fail as simulated_outage and never reach it; without attempts, until or for it lasts until the run's end",
    ),

  login: z
    .strictObject({
      version: ApiVersion,
      variant: z.enum(LOGIN_VARIANTS).default('json'),
      username: z.string(),
      password: z.string(),
      casing: z.enum(['canonical', 'lower', 'pascal']).default('canonical'),
      query: z.boolean().default(false).describe('send the credentials in the query string'),
      as: AsName.optional(),
      expect: LoginExpect.optional(),
    })
    .describe('a real GetAccessToken call over HTTP'),
  wait: z
    .strictObject({
      until: z.literal('settled').optional(),
      for: Duration.optional(),
      timeout: Duration.default('10s'),
    })
    .refine((w) => (w.until === undefined) !== (w.for === undefined), {
      message: 'expected exactly one of until: settled or for: <duration>',
    })
    .describe('waits until no delivery is in flight, or for a real-time duration'),
  waitFor: WaitForStep,
  expect: ExpectStep,
} as const;

export type StepKind = keyof typeof STEP_KINDS;
export const STEP_KIND_NAMES = Object.keys(STEP_KINDS) as StepKind[];

const StepLabel = { name: z.string().min(1).optional().describe('label shown in progress and reports') };

/** One branch per kind, so the JSON Schema offers completion for each. */
export const StepSchema = z.union(
  STEP_KIND_NAMES.map((kind) => z.strictObject({ ...StepLabel, [kind]: STEP_KINDS[kind] })) as unknown as [
    z.ZodTypeAny,
    z.ZodTypeAny,
    ...z.ZodTypeAny[],
  ],
  { error: `expected a step with one of: ${STEP_KIND_NAMES.join(', ')}` },
);

type StepValue<K extends StepKind> = z.output<(typeof STEP_KINDS)[K]>;
/** A validated step: its kind, its label and its value. */
export type Step = { [K in StepKind]: { name?: string } & { [P in K]: StepValue<K> } }[StepKind];
export type LoginStep = StepValue<'login'>;

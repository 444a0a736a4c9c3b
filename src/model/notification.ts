/**
 * A notification's members, defined once (decision 0234): the outbox's record is typed by this shape
 * (src/delivery/notification.ts), its summary and detail views copy the members it lists
 * (`toSummary`), the admin contract registers it (src/admin/contract/delivery-schemas.ts), the data
 * dir's records leave its null members out (`withoutNulls`, `withNulls`), and the dashboard draws the
 * links between notifications from `NOTIFICATION_LINKS` (served as ui/fields.js).
 */
import { z } from 'zod';
import { BOOKING_STATUSES } from './constants.js';
import { AttemptShape, NotificationRefShape } from './delivery.js';
import { instant, int, str } from './fields.js';

/**
 * Why a notification was cancelled: `credential_deleted`, its credential was deleted while it was
 * pending; `resent`, a resend took its place (decision 0200).
 */
export const CANCEL_REASONS = ['credential_deleted', 'resent'] as const;

/** A member that names another notification: the dashboard links it, with this label. */
const linkTo = (label: string) => ({ link: label });

/**
 * The members of the summary view, in the order the admin API answers them: the record's own
 * members and the ones the view computes (`stateNote`, `attemptCount`, `lastAttempt`).
 */
export const NotificationSummaryShape = z.object({
  ...NotificationRefShape.omit({ state: true }).shape,
  bookingNumber: str,
  bookingStatus: z.enum(BOOKING_STATUSES),
  state: NotificationRefShape.shape.state,
  stateNote: str
    .nullable()
    .describe(
      'exhausted after attempts a crash cut off (they count toward the 5): "exhausted; 3 attempts cut off by a crash: the receiver may have acknowledged"; else null',
    ),
  url: str,
  createdAt: instant,
  deliveredAt: instant.nullable(),
  exhaustedAt: instant.nullable(),
  cancelledAt: instant.nullable(),
  cancelReason: z
    .enum(CANCEL_REASONS)
    .nullable()
    .describe(
      'why a cancelled notification is no longer redelivered: credential_deleted, or resent (a resend or redelivery took its place)',
    ),
  resentFrom: str
    .nullable()
    .describe('the notification this one resends (resend, bulk retry), else null')
    .meta(linkTo('Resends')),
  filename: str.describe('Content-Disposition filename, <yyyyMMdd_HHmmssZ>-<BookingNumber>.json'),
  attemptCount: int,
  inFlight: z.boolean().describe('an attempt is queued or running'),
  warnings: z.array(str),
  lastAttempt: AttemptShape.nullable(),
});

/** Where a notification stands: the members every change of its state sets. */
export const SETTLED_MEMBERS = [
  'state',
  'deliveredAt',
  'exhaustedAt',
  'cancelledAt',
  'cancelReason',
] as const;

/** The summary's members a view computes from the record rather than copies. */
export const COMPUTED_MEMBERS = ['stateNote', 'attemptCount', 'lastAttempt'] as const;
type Computed = (typeof COMPUTED_MEMBERS)[number];

/** The members of the detail view beyond the summary's own. */
export const NotificationDetailMembers = {
  attempts: z.array(AttemptShape),
  resentAs: z
    .array(str)
    .optional()
    .describe('GET /notifications/:id: the notifications that resend this one, oldest first')
    .meta(linkTo('Resent as')),
};

/** The record's own members: the summary's, the computed ones aside. */
export type NotificationMembers = Omit<z.output<typeof NotificationSummaryShape>, Computed | 'warnings'> & {
  /** Shared with the credential or with other records, never changed in place. */
  warnings: readonly string[];
};

/** The members that copy over from the record to the summary, in the summary's order. */
export const COPIED_MEMBERS = Object.keys(NotificationSummaryShape.shape).filter(
  (k) => !(COMPUTED_MEMBERS as readonly string[]).includes(k),
) as Array<keyof NotificationMembers>;

/** The members a data dir's record of a notification carries as they are (`inFlight` is never kept). */
const KEPT = COPIED_MEMBERS.filter((k) => k !== 'inFlight' && k !== 'warnings') as Array<
  Exclude<keyof NotificationMembers, 'inFlight' | 'warnings'>
>;
const isNullable = (k: keyof NotificationMembers) =>
  NotificationSummaryShape.shape[k].safeParse(null).success;
const NULLABLE: ReadonlySet<keyof NotificationMembers> = new Set(KEPT.filter(isNullable));

/**
 * The shapes of the members a data dir's record carries as they are, a null one left out (a record
 * read back 100,000 times is short): `{ id: str, …, deliveredAt: instant.nullish(), … }`.
 */
export const KEPT_MEMBER_SHAPES = Object.fromEntries(
  KEPT.map((k) => {
    const shape = NotificationSummaryShape.shape[k] as z.ZodType;
    return [k, NULLABLE.has(k) ? (shape as z.ZodNullable<z.ZodType>).unwrap().nullish() : shape];
  }),
) as unknown as {
  [K in (typeof KEPT)[number]]: z.ZodType<NotificationMembers[K] | undefined>;
};

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `(n, f) => ({ name: expression, … })` compiled once from the shape's member names: an object
 * literal of one fixed shape, as fast as one written by hand (a loop of keyed stores into an empty
 * object was 10 to 20 times slower, measured over 100,000 summaries). `n` is the object read, `f`
 * the functions the expressions call.
 */
export function literalOf<A, F, R>(members: ReadonlyArray<readonly [name: string, expression: string]>) {
  for (const [name] of members) if (!IDENTIFIER.test(name)) throw new Error(`not a member name: ${name}`);
  const body = members.map(([name, expression]) => `${name}: ${expression}`).join(', ');
  return new Function('n', 'f', `return { ${body} };`) as (n: A, f?: F) => R;
}

/**
 * Every member, in the summary's order whatever `d` holds (one object shape for every record made:
 * by an event, a resend or a restart), a nullable one `d` left out as null.
 */
export const membersOf: (d: Partial<NotificationMembers>) => NotificationMembers = literalOf(
  COPIED_MEMBERS.map((k) => [k, NULLABLE.has(k) ? `n.${k} ?? null` : `n.${k}`] as const),
);

/** The member that makes a new notification the resend of notification `original`. */
export const resending = (original: string | undefined): Partial<NotificationMembers> =>
  original === undefined ? {} : { resentFrom: original };

/** Each member that names other notifications, and the label the dashboard links it with. */
export const NOTIFICATION_LINKS: Array<{ member: string; label: string }> = Object.entries({
  ...NotificationSummaryShape.shape,
  ...NotificationDetailMembers,
}).flatMap(([member, shape]) => {
  const label = (shape.meta() as { link?: string } | undefined)?.link;
  return label ? [{ member, label }] : [];
});

import { z } from 'zod';
import { VARIANTS as JOURNAL_VARIANTS } from '../../auth/types.js';
import { NOTIFICATION_STATES } from '../../delivery/notification.js';
import { ATTEMPT_OUTCOMES } from '../../delivery/outcome.js';
import { ApiVersion, BookingRef, BookingStatus, Duration, MatcherMap } from './common.js';

export { ATTEMPT_OUTCOMES, JOURNAL_VARIANTS, NOTIFICATION_STATES };
export const LOGIN_VARIANTS = ['json', 'xml', 'soap', 'soap12'] as const;

/** Which notifications an expectation or a waitFor looks at (all when empty). */
const NotificationSelect = {
  booking: BookingRef.optional().describe('only notifications of this reservation'),
  credential: z.string().min(1).optional().describe('only notifications for this credential id'),
  bookingStatus: BookingStatus.optional().describe('only notifications carrying this BookingStatus'),
};

/** Narrows a selection to its oldest or newest notification (e.g. the one a manual redelivery made). */
const Pick = z
  .enum(['all', 'first', 'last'])
  .default('all')
  .describe('all selected, or only the oldest/newest');

/** Assertions on the selected notifications; each listed field must hold for every one of them. */
export const NotificationsExpect = z.strictObject({
  ...NotificationSelect,
  pick: Pick,
  count: z.number().int().min(0).optional().describe('how many notifications are selected'),
  state: z.enum(NOTIFICATION_STATES).optional(),
  attempts: z.number().int().min(0).optional().describe('attempt count of each'),
  outcome: z.enum(ATTEMPT_OUTCOMES).optional().describe('outcome of the last attempt'),
  statusCode: z.number().int().optional().describe('status code of the last attempt'),
  statusCodes: z
    .array(z.number().int().nullable())
    .optional()
    .describe('status code of every attempt in order (null: no status)'),
  credentials: z.array(z.string()).optional().describe('the credential ids the selection went to, any order'),
  headers: MatcherMap.optional().describe('delivery header name → matcher'),
  body: MatcherMap.optional().describe('body field path → matcher, e.g. Reservation.BookingStatus'),
  warnings: z.number().int().min(0).optional().describe('number of warnings on each'),
});

export const ReservationExpect = z.strictObject({
  booking: BookingRef,
  status: BookingStatus.optional(),
  exchangedTo: BookingRef.optional(),
  exchangedFrom: BookingRef.optional(),
});

/** What a built-in receiver got (bodies are gunzipped and parsed before matching). */
export const ReceiverExpect = z.strictObject({
  name: z.string().min(1),
  count: z.number().int().min(0).optional().describe('requests received'),
  headers: MatcherMap.optional().describe('header (lower or any case) → matcher, on every request'),
  body: MatcherMap.optional().describe('body field path → matcher, on every request'),
  bookingStatuses: z.array(BookingStatus).optional().describe('Reservation.BookingStatus of each, in order'),
});

/** Which GetAccessToken journal entries to look at. */
const RequestSelect = {
  version: ApiVersion.optional(),
  variant: z.enum(JOURNAL_VARIANTS).optional(),
  username: z.string().optional(),
  outcome: z.string().optional().describe('journal outcome, e.g. success'),
};

export const RequestsExpect = z.strictObject({
  ...RequestSelect,
  pick: Pick,
  count: z.number().int().min(0).optional(),
  transactionCode: z.string().nullable().optional().describe('on every selected entry'),
  warning: z.string().optional().describe('text every selected entry has among its warnings'),
  noWarnings: z.boolean().optional(),
});

/** Assertions on the answer of a `login` step named with `as:`. */
export const LoginExpect = z.strictObject({
  ok: z.boolean().optional().describe('true when a token came back'),
  status: z.number().int().optional().describe('HTTP status'),
  transactionCode: z.string().nullable().optional().describe('1.7 TransactionCode, or the 1.6 error code'),
  message: z.string().optional().describe('text the error message (TransactionMessage) contains'),
  headers: MatcherMap.optional(),
});

export const ExpectStep = z
  .strictObject({
    notifications: NotificationsExpect.optional(),
    reservation: ReservationExpect.optional(),
    receiver: ReceiverExpect.optional(),
    requests: RequestsExpect.optional(),
    login: LoginExpect.extend({ name: z.string().min(1).describe('the `as:` of a login step') }).optional(),
  })
  .refine((e) => Object.values(e).some((v) => v !== undefined), {
    message: 'expected at least one of notifications, reservation, receiver, requests, login',
  });
export type ExpectStep = z.infer<typeof ExpectStep>;

/** Waits for an outside actor (the SDK or receiver under test) until a count is reached. */
export const WaitForStep = z
  .strictObject({
    requests: z.strictObject({ ...RequestSelect, count: z.number().int().min(1) }).optional(),
    notifications: z
      .strictObject({
        ...NotificationSelect,
        state: z.enum(NOTIFICATION_STATES).optional(),
        count: z.number().int().min(1),
      })
      .optional(),
    receiver: z.strictObject({ name: z.string().min(1), count: z.number().int().min(1) }).optional(),
    timeout: Duration.default('30s'),
  })
  .refine((w) => [w.requests, w.notifications, w.receiver].filter(Boolean).length === 1, {
    message: 'expected exactly one of requests, notifications, receiver',
  });

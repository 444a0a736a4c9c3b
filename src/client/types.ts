/**
 * Shapes of the admin API (docs/admin-api.md) as seen by a client, each read from the route table's
 * schemas (src/admin/contract/, decision 0045): answers as the emulator sends them (`z.output`),
 * request bodies as it accepts them (`z.input`). Times are ISO 8601 strings of emulator time unless
 * the name ends in `Wall`. Types only: nothing here runs.
 */
import type { z } from 'zod';
import type * as D from '../admin/contract/delivery-schemas.js';
import type { Answer, CallInput } from '../admin/contract/route.js';
import type { AdminRoutes } from '../admin/contract/routes.js';
import type * as S from '../admin/contract/schemas.js';

export type { ApiVersion, Variant as JournalVariant } from '../auth/types.js';
export type { BookingStatus } from '../contract/index.js';
export type { CancelReason, NotificationState } from '../delivery/notification.js';
export type { NotAttemptedReason } from '../delivery/outbox.js';
export type { AttemptOutcome } from '../delivery/outcome.js';
export type { EventType } from '../reservations/index.js';

export type Health = z.output<typeof S.HealthSchema>;
export type EffectiveConfig = z.output<typeof S.EffectiveConfigSchema>;
export type TrustedCertificate = z.output<typeof S.TrustedCertificateSchema>;

export type CredentialInput = z.input<typeof D.CredentialInputComponent>;
export type Credential = z.output<typeof D.CredentialSchema>;
export type CredentialFilters = Credential['filters'];

/** A GetAccessToken user as the emulator stores it (the body of `addUser`). */
export type User = z.output<typeof S.UserInputSchema>;
/** A user as the admin API answers it: never the password. */
export type UserView = z.output<typeof S.UserAnswerSchema>;
export type TokenRecord = z.output<typeof S.TokenSchema>;
export type JournalEntry = z.output<typeof S.JournalEntrySchema>;
export type JournalQuery = z.input<typeof S.JournalQuerySchema>;
export type FaultInput = z.input<typeof S.FaultInputSchema>;
export type Fault = z.output<typeof S.FaultAnswerSchema>;

export type ClockState = z.output<typeof S.ClockStateSchema>;
export type AdvanceInput = z.input<typeof S.AdvanceInputSchema>;
export type AdvanceResult = z.output<typeof S.AdvanceResultSchema>;

export type EventInput = z.input<typeof D.EventInputComponent>;
export type EventResult = z.output<typeof D.EventResultSchema>;
export type NotificationRef = z.output<typeof D.NotificationRefSchema>;
export type ReservationSummary = z.output<typeof D.ReservationSummarySchema>;
export type Reservation = z.output<typeof D.ReservationSchema>;
export type Attempt = z.output<typeof D.AttemptSchema>;
export type NotificationSummary = z.output<typeof D.NotificationSummarySchema>;
export type Notification = z.output<typeof D.NotificationSchema>;
/** Filters of `listNotifications` (`wait` and `timeoutMs` are `waitSettled`'s). */
export type NotificationQuery = Omit<z.input<typeof D.NotificationQuerySchema>, 'wait' | 'timeoutMs'>;
export type ExportQuery = z.input<typeof D.ExportQuerySchema>;
export type DeliveryStats = z.output<typeof D.DeliveryStatsSchema>;
/** The answer of `deliveryStats`: every credential's figures and the window of their timelines. */
export type DeliveryStatsList = z.output<typeof D.DeliveryStatsListSchema>;
export type JournalDetail = z.output<typeof S.JournalDetailSchema>;
export type NotificationList = z.output<typeof D.NotificationListSchema>;
export type RetryResult = z.output<typeof D.RetryResultSchema>;
export type ResendInput = z.input<typeof D.ResendInputSchema>;
export type ResendResult = z.output<typeof D.ResendResultSchema>;
export type ResendFailedInput = z.input<typeof D.ResendFailedInputSchema>;
export type ResendFailedResult = z.output<typeof D.ResendFailedResultSchema>;
export type Triage = z.output<typeof D.TriageSchema>;
export type TriageRetryInput = z.input<typeof D.TriageRetryInputSchema>;
export type BatchResult = z.output<typeof D.BatchResultSchema>;
export type NotAttempted = NonNullable<BatchResult['notAttempted']>;
export type Activity = z.output<typeof D.ActivitySchema>;
export type OutageInput = z.input<typeof D.OutageInputComponent>;
export type Outage = z.output<typeof D.OutageSchema>;

export type ScenarioRunResult = z.output<typeof S.ScenarioRunResultSchema>;
export type VerifyInput = z.input<typeof S.VerifyInputSchema>;
export type VerifyReport = z.output<typeof S.VerifyReportSchema>;

/** Every admin operation by name, as declared in the route table. */
export type AdminOperations = AdminRoutes;
/** What a call of operation `K` sends: its path parameters, query and body, each only where it has them. */
export type OperationInput<K extends keyof AdminRoutes> = CallInput<AdminRoutes[K]>;
/** What operation `K` answers on success (`void` without a JSON body). */
export type OperationAnswer<K extends keyof AdminRoutes> = Answer<AdminRoutes[K]>;

/**
 * Shapes of the admin API (docs/admin-api.md) as seen by a client. Times are ISO 8601 strings of
 * emulator time unless the name ends in `Wall`.
 */
// Shapes that have an owner in the emulator are re-exported from it (types only, nothing runs), so the
// client can never drift from what the server answers.

export type { TokenView as TokenRecord } from '../auth/tokens.js';
export type { ApiVersion, Variant as JournalVariant } from '../auth/types.js';
export type { AdvanceResult, ClockState } from '../clock/types.js';
export type { EffectiveConfig } from '../config/effective.js';
export type { BookingStatus } from '../contract/index.js';
export type { CancelReason, NotificationState } from '../delivery/notification.js';
export type { BatchResult, NotAttempted, NotAttemptedReason } from '../delivery/outbox.js';
export type { AttemptOutcome } from '../delivery/outcome.js';
export type { TrustedCertificate } from '../delivery/trust.js';
export type { EventType } from '../reservations/index.js';

import type { ApiVersion, Variant as JournalVariant } from '../auth/types.js';
import type { BookingStatus } from '../contract/index.js';
import type { CancelReason, NotificationState } from '../delivery/notification.js';
import type { AttemptOutcome } from '../delivery/outcome.js';
import type { EventType } from '../reservations/index.js';

export interface Health {
  status: 'ok' | 'starting';
  clock?: 'real' | 'compressed' | 'manual';
  seed?: number;
}

export interface CredentialFilters {
  pcc?: string[];
  idWeb?: number[];
}
export interface CredentialInput {
  id?: string;
  apiKey: string;
  url: string;
  filters?: CredentialFilters;
}
export interface Credential extends Required<Pick<CredentialInput, 'id' | 'apiKey' | 'url'>> {
  filters: CredentialFilters;
  warnings: string[];
}

export interface User {
  username: string;
  password: string;
  idWeb: number;
  webDescription: string;
  versions: ApiVersion[];
}
/** A user as the admin API answers it: never the password. */
export type UserView = Omit<User, 'password'>;

export interface EventInput {
  type: EventType;
  bookingId?: number;
  /** Deep partial notification body. */
  overrides?: Record<string, unknown>;
  seed?: number;
}

export interface ReservationSummary {
  bookingId: number;
  bookingNumber: string;
  status: BookingStatus;
  updatedAt?: string;
  exchangedTo?: number;
  exchangedFrom?: number;
}
export interface Reservation extends ReservationSummary {
  body: Record<string, unknown>;
  history: unknown[];
}

export interface NotificationRef {
  id: string;
  credentialId: string;
  bookingId: number;
  state: NotificationState;
}
export interface EventResult {
  event: EventType | 'Redelivery' | string;
  at: string;
  reservations: Array<Pick<ReservationSummary, 'bookingId' | 'bookingNumber' | 'status'>>;
  notifications: NotificationRef[];
  routedTo: number;
  message: string;
  warnings: string[];
}

export interface Attempt {
  number: number;
  startedAt: string;
  startedAtWall: string;
  durationMs: number;
  outcome: AttemptOutcome;
  statusCode?: number | null;
  message: string;
  responseBody?: string;
}
export interface NotificationSummary extends NotificationRef {
  bookingNumber: string;
  bookingStatus: BookingStatus;
  url: string;
  createdAt: string;
  deliveredAt: string | null;
  exhaustedAt: string | null;
  /** Set when the state is `cancelled`: when, and why (`credential_deleted`). */
  cancelledAt: string | null;
  cancelReason: CancelReason | null;
  filename: string;
  attemptCount: number;
  warnings: string[];
}
export interface Notification extends Omit<NotificationSummary, 'attemptCount'> {
  headers: Record<string, string>;
  body: Record<string, unknown>;
  attempts: Attempt[];
}
export interface NotificationQuery {
  state?: NotificationState;
  credentialId?: string;
  bookingId?: number;
}
export interface NotificationList {
  notifications: NotificationSummary[];
  /** Present with `wait=settled`: false when the timeout passed first. */
  settled?: boolean;
}

export type AdvanceInput = { by: string } | { to: string };
export interface JournalEntry {
  id: string;
  at: string;
  version: ApiVersion;
  variant: JournalVariant;
  path: string;
  username: string | null;
  outcome: string;
  transactionCode: string | null;
  warnings: unknown[];
}
export interface JournalQuery {
  version?: ApiVersion;
  variant?: JournalVariant;
  username?: string;
  outcome?: string;
}

export interface FaultInput {
  version?: ApiVersion;
  variant?: JournalVariant | 'soap';
  kind: 'delay' | 'status' | 'malformed' | 'drop';
  delayMs?: number;
  status?: number;
  count?: number;
  fraction?: number;
}
export interface Fault extends FaultInput {
  id: string;
  [key: string]: unknown;
}

export type { Outage, OutageInput } from '../delivery/outages.js';

/**
 * Shapes of the admin API (docs/admin-api.md) as seen by a client. Times are ISO 8601 strings of
 * emulator time unless the name ends in `Wall`.
 */
export type ApiVersion = '1.6' | '1.7';
export type BookingStatus = 'Issued' | 'Voided' | 'Exchanged' | 'Issued-Exch';
export type EventType = 'Issue' | 'Void' | 'Exchange';
export type NotificationState = 'pending' | 'delivered' | 'exhausted';
export type AttemptOutcome =
  | 'http_status'
  | 'timeout'
  | 'connect_refused'
  | 'dns_error'
  | 'tls_error'
  | 'reset'
  | 'invalid_response';
export type JournalVariant = 'json' | 'xml' | 'soap11' | 'soap12';

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

export interface BatchResult {
  at: string;
  attempted: number;
  delivered: number;
  failed: number;
  exhausted: number;
  skipped?: number;
}

export interface ClockState {
  mode: 'real' | 'compressed' | 'manual';
  now: string;
  nextBatchAt: string;
  hourMs?: number;
}
export type AdvanceInput = { by: string } | { to: string };
export interface AdvanceResult {
  from: string;
  to: string;
  batches: unknown[];
}

export interface TokenRecord {
  token: string;
  username: string;
  version: ApiVersion;
  issuedAt: string;
  expiresAt: string;
  expired: boolean;
  revoked: boolean;
}

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

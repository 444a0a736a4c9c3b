/** What the reservation store keeps and answers (shapes of docs/admin-api.md). */
import type { BookingStatus, NotificationBody } from '../contract/index.js';
import type { EventType } from './events.js';

export interface ReservationSummary {
  bookingId: number;
  bookingNumber: string;
  status: BookingStatus;
  /** UpdateDate of the last notification body (emulator time). */
  updatedAt: string;
  exchangedTo?: number;
  exchangedFrom?: number;
}

export interface HistoryEntry {
  at: string;
  event: EventType | 'Redeliver';
  status: BookingStatus;
  warning?: string;
}

export interface Reservation extends ReservationSummary {
  /** The last generated notification body. */
  body: NotificationBody;
  history: HistoryEntry[];
}

export interface LifecycleResult {
  event: EventType | 'Redeliver';
  /** Emulator time of the event, ISO (whole seconds, the bodies' UpdateDate). */
  at: string;
  /** Every reservation the event created or changed. */
  reservations: ReservationSummary[];
  /**
   * Bodies to notify, in order (Exchange per settings.exchangeNotifies), each with its packed bytes
   * (contract `packBody`), which the outbox sends as they are instead of gzipping the body again.
   */
  emit: Array<{ bookingId: number; body: NotificationBody; gz: Buffer }>;
  warnings: string[];
}

export type ExchangeNotifies = 'new' | 'old' | 'both';

/** What the reservation store keeps and answers (shapes of docs/admin-api.md). */
import type { z } from 'zod';
import type { NotificationBody, StoredBody } from '../contract/index.js';
import type { HistoryEntryShape, ReservationSummaryShape } from '../model/reservation.js';
import type { EventType } from './events.js';

/** A reservation as the admin API lists it. */
export type ReservationSummary = z.output<typeof ReservationSummaryShape>;
/** One change of a reservation (its `history`). */
export type HistoryEntry = z.output<typeof HistoryEntryShape>;
/** One reservation with its last notification body and history. */
export type Reservation = ReservationSummary & { body: NotificationBody; history: HistoryEntry[] };

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
  emit: Array<{ bookingId: number; body: NotificationBody; gz: StoredBody }>;
  warnings: string[];
}

export type ExchangeNotifies = 'new' | 'old' | 'both';

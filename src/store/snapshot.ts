import type { AuthService } from '../auth/index.js';
import type { DeliveryService } from '../delivery/index.js';
import type { NotificationRecord } from '../delivery/notification.js';
import type { Settled } from '../delivery/outbox-state.js';
import type { TrustedCertificate } from '../delivery/trust.js';
import { keptMembers } from '../model/notification.js';
import type { ReservationStore, StoredReservation } from '../reservations/index.js';
import type { ClockMark, KeptRecord, NotificationChange, NotificationData, OutgoingRecord } from './kinds.js';

/** The services a data dir keeps (a subset of the Emulator). */
export interface KeptServices {
  auth: AuthService;
  reservations: ReservationStore;
  delivery: DeliveryService;
}

/** The record of one reservation: its state in JSON, its body as raw bytes. */
export function reservationRecord(
  record: StoredReservation,
  sequence: number,
  history: 'whole' | 'appended' = 'whole',
): OutgoingRecord {
  const { gz, ...rest } = record;
  // A save appends one entry to the history it had: the journal carries that one, not all again
  // (a reservation redelivered 1,000 times would otherwise write 1,000 entries on the next one).
  if (history === 'appended' && rest.history.length > 1) {
    const historyFrom = rest.history.length - 1;
    return {
      k: 'res',
      d: { record: { ...rest, history: rest.history.slice(historyFrom) }, sequence, historyFrom },
      b: gz,
    };
  }
  return { k: 'res', d: { record: rest, sequence }, b: gz };
}

/**
 * The record of a new notification, as small as it can be read fast (a restart parses 100,000):
 * null members left out, the warnings named by their credential when they are its warnings, and
 * the body written once: when it is the reservation's latest body (the usual case, the same
 * Buffer), the record names the reservation instead.
 */
export function notificationRecord(
  n: NotificationRecord,
  sharesBody: boolean,
  credentialWarnings: readonly string[] | undefined,
): OutgoingRecord {
  const d = { ...keptMembers(n), authorization: n.authorization } as NotificationData;
  if (n.state === 'pending' && n.cancelWhenSettled) d.cancelWhenSettled = n.cancelWhenSettled;
  if (n.lastFinishedMs !== undefined) d.lastFinishedMs = n.lastFinishedMs;
  if (n.attempts.length > 0) d.attempts = [...n.attempts];
  if (n.warnings.length > 0) {
    if (n.warnings === credentialWarnings) d.warningsOf = n.credentialId;
    else d.warnings = [...n.warnings];
  }
  if (sharesBody) d.gzOf = n.bookingId;
  return sharesBody ? { k: 'n+', d } : { k: 'n+', d, b: n.gz };
}

/** The record of a notification's state change (null members left out), with the attempt that ended. */
export function changeRecord(id: string, n: Settled, attempt?: NotificationChange['attempt']): KeptRecord {
  const d: NotificationChange = { id, state: n.state };
  if (n.deliveredAt !== null) d.deliveredAt = n.deliveredAt;
  if (n.exhaustedAt !== null) d.exhaustedAt = n.exhaustedAt;
  if (n.cancelledAt !== null) d.cancelledAt = n.cancelledAt;
  if (n.cancelReason !== null) d.cancelReason = n.cancelReason;
  if (n.state === 'pending' && n.cancelWhenSettled) d.cancelWhenSettled = n.cancelWhenSettled;
  if (n.lastFinishedMs !== undefined) d.lastFinishedMs = n.lastFinishedMs;
  if (attempt) d.attempt = attempt;
  return { k: 'n', d };
}

/**
 * Every record of the state at this instant, for a snapshot: what the admin API acknowledged, in an
 * order replay can follow (reservations before the notifications that share their bodies), plus the
 * attempts and the batch running now, so a crash after the snapshot still finds them cut off.
 *
 * The cut is taken when this is called and is cheap: references to what does not change once stored
 * (reservations, credentials, journal entries, a notification's attempts array), a shallow copy of
 * each notification's own fields and of each token. The records are built as they are iterated, so
 * a background compaction builds them slice by slice instead of holding the event loop for all
 * (decision 0146); changes made meanwhile go to the next journal and are not in them.
 */
export function stateRecords(s: KeptServices, clock: ClockMark): Iterable<OutgoingRecord> {
  const small: KeptRecord[] = [{ k: 'clock', d: clock }];
  for (const u of s.auth.users.list()) small.push({ k: 'user+', d: u });
  for (const c of s.delivery.credentials.list()) small.push({ k: 'cred+', d: credentialData(c) });
  for (const { pem, info } of s.delivery.trustStore.entries()) small.push(trustRecord(pem, info));
  small.push({ k: 'faults', d: { faults: s.auth.faults.list() } });
  small.push({ k: 'outages', d: { outages: s.delivery.outages.list() } });
  const { records, sequence } = s.reservations.storedAll();
  const reservations = [...records];
  const { dropped } = s.delivery.outbox.retention();
  // Each notification as it stands now, with what its record names decided now: whether its body is
  // its reservation's latest and its warnings its credential's.
  const notifications = s.delivery.outbox.list().map((n) => ({
    n: { ...n },
    sharesBody: s.reservations.stored(n.bookingId)?.record.gz === n.gz,
    credentialWarnings: s.delivery.credentials.get(n.credentialId)?.warnings,
  }));
  const { started, batchRunning } = s.delivery.outbox.state;
  const startedNow = [...started];
  const batches = [...s.delivery.outbox.batches()];
  const journal = s.auth.journal.list();
  const tokens = s.auth.tokens.kept();
  return (function* () {
    yield* small;
    for (const r of reservations) yield reservationRecord(r, sequence);
    if (dropped > 0) yield { k: 'n-', d: { ids: [], dropped } };
    // A notification's record carries its attempts so far.
    for (const { n, sharesBody, credentialWarnings } of notifications)
      yield notificationRecord(n, sharesBody, credentialWarnings);
    for (const [id, attempt] of startedNow) yield { k: 'a>', d: { id, attempt } };
    for (const b of batches) yield { k: 'b', d: b };
    if (batchRunning) yield { k: 'b>', d: { at: batchRunning } };
    for (const e of journal) yield { k: 'req', d: e };
    for (const t of tokens) yield { k: 'tok', d: t };
  })();
}

/** The record of one trusted certificate: its PEM text, where it came from, its fingerprint. */
export function trustRecord(pem: string, info: TrustedCertificate): KeptRecord {
  return { k: 'trust+', d: { text: pem, source: info.source, fingerprint: info.fingerprint256 } };
}

/** A credential as its record keeps it: the admin input, plus the verify kit's flag. */
export function credentialData(c: {
  id: string;
  apiKey: string;
  url: string;
  filters: { pcc?: string[]; idWeb?: number[] };
  omitAuthorization?: true;
}) {
  return {
    id: c.id,
    apiKey: c.apiKey,
    url: c.url,
    filters: c.filters,
    ...(c.omitAuthorization ? { omitAuthorization: true as const } : {}),
  };
}

import { BodyFile, type StoredBody } from '../contract/index.js';
import { type Attempt, buildNotification } from '../delivery/notification.js';
import type { TrustedCertificate } from '../delivery/trust.js';
import type { ClockMark, KeptChange, NotificationData } from '../model/changes.js';
import type { KeptServices } from './change-records.js';
import { changesOf } from './format-2.js';
import type { KeptRecord } from './kinds.js';
import { keptStores, type StoreChange } from './snapshot.js';

/** A change as read back, with the body its record carried or named, kept in the body file. */
type ReadChange = KeptChange & { gz?: StoredBody };

const NO_WARNINGS: readonly string[] = [];
const NO_ATTEMPTS: readonly Attempt[] = [];
/** The settled members a record leaves out when null (or undefined). */
const UNSETTLED = {
  deliveredAt: null,
  exhaustedAt: null,
  cancelledAt: null,
  cancelReason: null,
  lastFinishedMs: undefined,
  cancelWhenSettled: undefined,
};

/**
 * Hands a change to the `apply` of every kept store: each makes the kinds it owns (a switch on the
 * kind) and passes over the others, so no kind can miss its store (decision 0266).
 */
export function applyTo(s: KeptServices, change: StoreChange): void {
  for (const store of keptStores(s)) store.apply(change);
}

/**
 * The reader of a data dir's records, run before the services exist: each record becomes its change
 * (or, format 2, its changes), its body copied into the body file. It keeps where the clock stood,
 * the latest batch instant, and each reservation's latest body (a notification's record may name it).
 */
export class RecordReader {
  /** The changes read, for `replay`. */
  readonly changes: (ReadChange | undefined)[] = [];
  clock: ClockMark | undefined;
  /** The latest batch instant run, skipped or started, in emulator ms. */
  lastBatchMs: number | undefined;
  readonly #bodies = new Map<number, StoredBody>();
  /** The latest certificate added with each fingerprint: format 2 names a removed one by it. */
  readonly #trusted = new Map<string, TrustedCertificate>();

  /** Reads one record: a change (format 3), or a record of format 2 turned into its changes. */
  apply(rec: KeptRecord): void {
    for (const change of changesOf(rec, (fp) => this.#trusted.get(fp))) this.#read(change, rec.b);
  }

  #read(change: KeptChange, b: Buffer | undefined): void {
    const { k, d } = change;
    let gz: StoredBody | undefined;
    switch (k) {
      case 'clock_started':
      case 'clock_advanced':
        this.clock = d.mark;
        return;
      case 'reservation_saved':
        gz = BodyFile.shared.keep(b!);
        this.#bodies.set(d.record.bookingId, gz);
        break;
      case 'notification_created': {
        const { id, gzOf } = d.notification;
        gz = b ? BodyFile.shared.keep(b) : gzOf !== undefined ? this.#bodies.get(gzOf) : undefined;
        if (!gz) throw new Error(`notification ${id} has no body (reservation ${gzOf} unknown)`);
        break;
      }
      case 'batch_started':
      case 'batch_done': {
        const ms = Date.parse(k === 'batch_started' ? d.at : d.result.at);
        if (this.lastBatchMs === undefined || ms > this.lastBatchMs) this.lastBatchMs = ms;
        break;
      }
      case 'trust_added':
        this.#trusted.set(d.certificate.fingerprint256, d.certificate);
        break;
      case 'reset':
        this.#bodies.clear();
        break;
    }
    this.changes.push(gz ? { ...change, gz } : change);
  }
}

/**
 * Replay (decision 0212): each change read back, made whole from the stores as they stand (a
 * notification named by its id), handed to the stores' own `apply`. Answers what was not restored:
 * credentials no longer accepted (an http:// receiver kept under --allow-http, read back without it).
 */
export function replay(s: KeptServices, read: (ReadChange | undefined)[]): string[] {
  const skipped: string[] = [];
  for (let i = 0; i < read.length; i++) {
    const { k, d, gz } = read[i]!;
    read[i] = undefined; // garbage once its store holds it
    let change: StoreChange | undefined;
    switch (k) {
      case 'reservation_saved':
        change = { kind: k, ...d, record: { ...d.record, gz: gz! } };
        break;
      case 'notification_created':
        change = { kind: k, notification: notificationOf(s, d.notification, gz!) };
        break;
      case 'attempt_started':
      case 'attempt_ended':
      case 'notification_cancelled': {
        const { id, ...rest } = d;
        const notification = s.delivery.outbox.get(id);
        if (!notification) continue; // forgotten by a reset after the attempt started
        const settled = 'settled' in rest ? { settled: { ...UNSETTLED, ...rest.settled } } : {};
        change = { kind: k, notification, ...rest, ...settled } as StoreChange;
        break;
      }
      case 'credential_added':
      case 'credential_replaced':
        try {
          change = { kind: k, credential: s.delivery.credentials.readBack(d.credential) };
        } catch (err) {
          skipped.push(`credential ${d.credential.id}: ${(err as Error).message}`);
          continue;
        }
        break;
      default:
        change = { kind: k, ...d } as StoreChange; // the change read back is the change
    }
    if (change) applyTo(s, change);
  }
  read.length = 0;
  return skipped;
}

/** A notification as read back: its warnings as kept, or its credential's now. */
function notificationOf(s: KeptServices, d: NotificationData, gz: StoredBody) {
  const named = d.warningsOf === undefined ? undefined : s.delivery.credentials.get(d.warningsOf)?.warnings;
  const warnings = d.warnings ?? named ?? NO_WARNINGS;
  return buildNotification(
    { ...d, warnings, inFlight: false },
    {
      cancelWhenSettled: d.cancelWhenSettled,
      authorization: d.authorization,
      gz,
      attempts: d.attempts ?? NO_ATTEMPTS,
      lastFinishedMs: d.lastFinishedMs,
    },
  );
}

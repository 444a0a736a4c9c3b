import type { User } from '../auth/users.js';
import { BodyFile, type StoredBody } from '../contract/index.js';
import { BATCH_HISTORY_LIMIT, type BatchResult } from '../delivery/batches.js';
import type { CredentialInput } from '../delivery/credential-schema.js';
import {
  type Attempt,
  countedAttempts,
  MAX_ATTEMPTS,
  type NotificationRecord,
} from '../delivery/notification.js';
import type { StartedAttempt } from '../delivery/outbox.js';
import type { TrustSource } from '../delivery/trust.js';
import { RESET } from '../model/change-sink.js';
import type { ClockMark, KeptRecord, NotificationChange, NotificationData, RecordData } from './kinds.js';
import type { ReplayedChange } from './owners.js';

type KeptCredential = RecordData<'cred+'>;

export type { ClockMark, NotificationChange } from './kinds.js';

const NO_WARNINGS: readonly string[] = [];
const NO_ATTEMPTS: readonly Attempt[] = [];

/** Everything a data dir holds, rebuilt from its records (snapshot then journal), in memory. */
export class ReplayedState {
  /** The changes the records stand for, for the stores' `apply`. */
  readonly changes: ReplayedChange[] = [];
  clock: ClockMark | undefined;
  /** The latest batch instant run, skipped or started, in emulator ms. */
  lastBatchMs: number | undefined;
  readonly users = new Map<string, User>();
  readonly credentials = new Map<string, KeptCredential>();
  /** PEM text and source by SHA-256 fingerprint. */
  readonly trust = new Map<string, { text: string; source: TrustSource; fingerprint: string }>();
  /** Each reservation's latest body: a notification's record may name it (`gzOf`). */
  readonly #bodies = new Map<number, StoredBody>();
  /** How many reservations were read back (for the log). */
  get reservations(): number {
    return this.#bodies.size;
  }
  readonly notifications = new Map<string, NotificationRecord>();
  /** Notifications the retention setting dropped (decision 0127). */
  droppedNotifications = 0;
  /** Attempts that started and never ended: a crash cut them off. */
  readonly started = new Map<string, StartedAttempt>();
  batches: BatchResult[] = [];
  /** A batch that started and never ended. */
  batchRunning: string | undefined;
  readonly #warnings = new Map<string, readonly string[]>();
  /** One stand-in array per credential for the warnings records named by it, replaced once credentials are back. */
  readonly #warningsOf = new Map<string, string[]>();
  /**
   * Stand-ins of a credential since replaced or deleted, with the credential as it was: their
   * notifications keep the warnings of that credential, not of its successor (or of nothing).
   */
  #formerWarningsOf: Array<{ standIn: string[]; credential: KeptCredential }> = [];

  /** Applies one record; exhaustive: a kind without a case here does not compile. */
  apply(rec: KeptRecord): void {
    switch (rec.k) {
      case 'clock':
        this.clock = rec.d;
        break;
      case 'user+':
        this.users.set(rec.d.username, rec.d);
        break;
      case 'user-':
        this.users.delete(rec.d.username);
        break;
      case 'cred+':
        this.#retireWarnings(rec.d.id);
        this.credentials.set(rec.d.id, rec.d);
        break;
      case 'cred-':
        this.#retireWarnings(rec.d.id);
        this.credentials.delete(rec.d.id);
        break;
      case 'trust+':
        this.trust.set(rec.d.fingerprint, rec.d);
        break;
      case 'trust-':
        this.trust.delete(rec.d.fingerprint);
        break;
      case 'faults':
        this.changes.push({ kind: 'fault_used', faults: rec.d.faults });
        break;
      case 'outages':
        this.changes.push({ kind: 'outage_used', outages: rec.d.outages });
        break;
      case 'res': {
        const { record, sequence, historyFrom } = rec.d;
        const gz = BodyFile.shared.keep(rec.b);
        this.#bodies.set(record.bookingId, gz);
        this.changes.push({
          kind: 'reservation_saved',
          record: { ...record, gz },
          sequence,
          ...(historyFrom === undefined ? {} : { historyFrom }),
        });
        break;
      }
      case 'n+':
        this.#created(rec.d, rec.b);
        break;
      case 'a>':
        this.started.set(rec.d.id, rec.d.attempt);
        break;
      case 'n':
        this.#changed(rec.d);
        break;
      case 'n-':
        // Dropped by the retention setting; `dropped` is the count so far, ids the ones dropped now.
        for (const id of rec.d.ids) {
          this.notifications.delete(id);
          this.started.delete(id);
        }
        this.droppedNotifications = rec.d.dropped;
        break;
      case 'b>':
        this.batchRunning = rec.d.at;
        this.#batchAt(rec.d.at);
        break;
      case 'b':
        this.batches.push(rec.d);
        if (this.batches.length > 2 * BATCH_HISTORY_LIMIT)
          this.batches = this.batches.slice(-BATCH_HISTORY_LIMIT);
        if (this.batchRunning === rec.d.at) this.batchRunning = undefined;
        this.#batchAt(rec.d.at);
        break;
      case 'req':
        this.changes.push({ kind: 'call_journaled', entry: rec.d });
        break;
      case 'tok': {
        const { token, username, version, issuedAtMs, revoked } = rec.d;
        this.changes.push({ kind: 'token_issued', token, username, version, issuedAtMs });
        if (revoked) this.changes.push({ kind: 'token_revoked', token });
        break;
      }
      case 'tok-':
        this.changes.push({ kind: 'token_revoked', token: rec.d.token });
        break;
      case 'reset':
        // product rule "Admin API": reset forgets these; users, credentials and trust stay.
        this.changes.push(RESET);
        this.#bodies.clear();
        this.notifications.clear();
        this.droppedNotifications = 0;
        this.#warningsOf.clear();
        this.#formerWarningsOf = [];
        this.started.clear();
        this.batches = [];
        this.batchRunning = undefined;
        break;
      default:
        unappliedKind(rec);
    }
  }

  /**
   * Ends what a crash cut off: each attempt that started and never ended becomes an `interrupted_by_crash`
   * attempt (it counts toward the 5: the receiver may have got it), the notification stays pending
   * unless that was its fifth. Answers the notifications it changed.
   */
  interruptAttempts(atIso: string): NotificationRecord[] {
    const changed: NotificationRecord[] = [];
    for (const [id, s] of this.started) {
      const n = this.notifications.get(id);
      if (n?.state !== 'pending') continue;
      const attempt: Attempt = {
        ...s,
        number: n.attempts.length + 1,
        finishedAt: s.startedAt,
        durationMs: 0,
        outcome: 'interrupted_by_crash',
        message: `the emulator stopped while this attempt was in flight (found at the restart of ${atIso}); whether the receiver got it is unknown: delivery is at-least-once across a restart, as the provider's`,
      };
      n.attempts = n.attempts.concat([attempt]);
      n.lastFinishedMs = Date.parse(s.startedAt);
      if (countedAttempts(n) >= MAX_ATTEMPTS) {
        n.state = 'exhausted';
        n.exhaustedAt = s.startedAt;
      }
      changed.push(n);
    }
    this.started.clear();
    return changed;
  }

  /** The credential `id` changes: the notifications named by it so far keep its warnings as they were. */
  #retireWarnings(id: string): void {
    const standIn = this.#warningsOf.get(id);
    const credential = this.credentials.get(id);
    if (!standIn || !credential) return;
    this.#formerWarningsOf.push({ standIn, credential });
    this.#warningsOf.delete(id);
  }

  #batchAt(at: string): void {
    const ms = Date.parse(at);
    if (this.lastBatchMs === undefined || ms > this.lastBatchMs) this.lastBatchMs = ms;
  }

  #created(d: NotificationData, b: Buffer | undefined): void {
    const gz = b ? BodyFile.shared.keep(b) : d.gzOf !== undefined ? this.#bodies.get(d.gzOf) : undefined;
    if (!gz) throw new Error(`notification ${d.id} has no body (reservation ${d.gzOf} unknown)`);
    let warnings: readonly string[] = NO_WARNINGS;
    if (d.warnings) {
      const key = d.warnings.join('\n');
      warnings = this.#warnings.get(key) ?? d.warnings;
      this.#warnings.set(key, warnings);
    } else if (d.warningsOf !== undefined) {
      const standIn = this.#warningsOf.get(d.warningsOf) ?? [];
      this.#warningsOf.set(d.warningsOf, standIn);
      warnings = standIn;
    }
    // Every member in the order Outbox.create writes them: one object shape for all records.
    this.notifications.set(d.id, {
      id: d.id,
      credentialId: d.credentialId,
      bookingId: d.bookingId,
      bookingNumber: d.bookingNumber,
      bookingStatus: d.bookingStatus,
      state: d.state,
      url: d.url,
      createdAt: d.createdAt,
      deliveredAt: d.deliveredAt ?? null,
      exhaustedAt: d.exhaustedAt ?? null,
      cancelledAt: d.cancelledAt ?? null,
      cancelReason: d.cancelReason ?? null,
      cancelWhenSettled: undefined,
      filename: d.filename,
      authorization: d.authorization,
      gz,
      attempts: d.attempts ?? NO_ATTEMPTS,
      warnings,
      inFlight: false,
      lastFinishedMs: d.lastFinishedMs,
      resentFrom: d.resentFrom ?? null,
    });
  }

  /**
   * Gives the notifications whose records named their credential's warnings those warnings: `of` the
   * credential now, or `ofFormer` a credential as it was before it was replaced or deleted.
   */
  resolveWarnings(
    of: (credentialId: string) => readonly string[] | undefined,
    ofFormer: (credential: CredentialInput) => readonly string[],
  ): void {
    if (this.#warningsOf.size === 0 && this.#formerWarningsOf.length === 0) return;
    const standIns = new Map<readonly string[], readonly string[]>([
      ...[...this.#warningsOf].map(([id, standIn]) => [standIn, of(id) ?? NO_WARNINGS] as const),
      ...this.#formerWarningsOf.map(({ standIn, credential }) => [standIn, ofFormer(credential)] as const),
    ]);
    for (const n of this.notifications.values()) {
      const real = standIns.get(n.warnings);
      if (real) n.warnings = real;
    }
    this.#warningsOf.clear();
    this.#formerWarningsOf = [];
  }

  #changed(d: NotificationChange): void {
    const n = this.notifications.get(d.id);
    if (!n) return; // forgotten by a reset after the attempt started
    n.state = d.state;
    n.deliveredAt = d.deliveredAt ?? null;
    n.exhaustedAt = d.exhaustedAt ?? null;
    n.cancelledAt = d.cancelledAt ?? null;
    n.cancelReason = d.cancelReason ?? null;
    n.lastFinishedMs = d.lastFinishedMs;
    if (d.attempt) {
      n.attempts = n.attempts.concat([d.attempt]);
      this.started.delete(d.id);
    }
  }
}

/** Never called: a kind of record without its case in `apply` leaves `rec` not `never`, a compile error. */
function unappliedKind(rec: never): never {
  throw new Error(`no replay of record ${JSON.stringify(rec)}`);
}

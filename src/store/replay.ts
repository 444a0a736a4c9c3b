import type { User } from '../auth/users.js';
import { BodyFile, type StoredBody } from '../contract/index.js';
import type { CredentialInput } from '../delivery/credential-schema.js';
import { type Attempt, buildNotification, type NotificationRecord } from '../delivery/notification.js';
import type { Settled } from '../delivery/outbox-state.js';
import type { TrustSource } from '../delivery/trust.js';
import { RESET } from '../model/change-sink.js';
import type { ClockMark, KeptRecord, NotificationChange, NotificationData, RecordData } from './kinds.js';
import type { ReplayedChange } from './owners.js';

type KeptCredential = RecordData<'cred+'>;

export type { ClockMark, NotificationChange } from './kinds.js';

const NO_WARNINGS: readonly string[] = [];
const NO_ATTEMPTS: readonly Attempt[] = [];

/**
 * The reader of a data dir's records (snapshot then journal, format 2): each record becomes the
 * changes it stands for, in order, for the stores' own `apply` (src/store/owners.ts). It keeps only
 * what reading needs: where the clock stood, each reservation's latest body and the notifications
 * by id (a notification's record names them), and the configuration (users, credentials, trusted
 * certificates), which a config or scenario preload may win over.
 */
export class RecordReader {
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
  /** The notifications read so far, by id: a change record names its notification by id. */
  readonly #notifications = new Map<string, NotificationRecord>();
  readonly #warnings = new Map<string, readonly string[]>();
  /** One stand-in array per credential for the warnings records named by it, replaced once credentials are back. */
  readonly #warningsOf = new Map<string, string[]>();
  /**
   * Stand-ins of a credential since replaced or deleted, with the credential as it was: their
   * notifications keep the warnings of that credential, not of its successor (or of nothing).
   */
  #formerWarningsOf: Array<{ standIn: string[]; credential: KeptCredential }> = [];

  /** How many reservations and notifications were read back (for the log). */
  counts(): { reservations: number; notifications: number } {
    return { reservations: this.#bodies.size, notifications: this.#notifications.size };
  }

  /** Reads one record; exhaustive: a kind without a case here does not compile. */
  apply(rec: KeptRecord): void {
    switch (rec.k) {
      case 'clock':
        this.clock = rec.d;
        break;
      case 'user+':
      case 'user-':
      case 'cred+':
      case 'cred-':
      case 'trust+':
      case 'trust-':
        this.#configuration(rec);
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
      case 'a>':
      case 'n':
      case 'n-':
        this.#notificationRecord(rec);
        break;
      case 'b>':
        this.changes.push({ kind: 'batch_started', at: rec.d.at });
        this.#batchAt(rec.d.at);
        break;
      case 'b':
        this.changes.push({ kind: 'batch_done', result: rec.d });
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
        this.#notifications.clear();
        this.#warningsOf.clear();
        this.#formerWarningsOf = [];
        break;
      default:
        unappliedKind(rec);
    }
  }

  /** A notification created, an attempt started, a notification changed, notifications dropped. */
  #notificationRecord(rec: Extract<KeptRecord, { k: 'n+' | 'a>' | 'n' | 'n-' }>): void {
    switch (rec.k) {
      case 'n+': {
        const notification = this.#created(rec.d, rec.b);
        this.#notifications.set(notification.id, notification);
        this.changes.push({ kind: 'notification_created', notification });
        break;
      }
      case 'a>': {
        const notification = this.#notifications.get(rec.d.id);
        if (notification)
          this.changes.push({ kind: 'attempt_started', notification, attempt: rec.d.attempt });
        break;
      }
      case 'n':
        this.#changed(rec.d);
        break;
      case 'n-':
        for (const id of rec.d.ids) this.#notifications.delete(id);
        this.changes.push({ kind: 'notifications_dropped', ids: rec.d.ids, dropped: rec.d.dropped });
        break;
    }
  }

  /** Users, credentials and trusted certificates: put back through their mutators (a preload wins). */
  #configuration(
    rec: Extract<KeptRecord, { k: 'user+' | 'user-' | 'cred+' | 'cred-' | 'trust+' | 'trust-' }>,
  ): void {
    switch (rec.k) {
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
    }
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

  #created(d: NotificationData, b: Buffer | undefined): NotificationRecord {
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
    for (const n of this.#notifications.values()) {
      const real = standIns.get(n.warnings);
      if (real) n.warnings = real;
    }
    this.#warningsOf.clear();
    this.#formerWarningsOf = [];
  }

  /** A notification's change record: the attempt that ended and where it left it, or a cancel. */
  #changed(d: NotificationChange): void {
    const notification = this.#notifications.get(d.id);
    if (!notification) return; // forgotten by a reset after the attempt started
    const settled: Settled = {
      state: d.state,
      deliveredAt: d.deliveredAt ?? null,
      exhaustedAt: d.exhaustedAt ?? null,
      cancelledAt: d.cancelledAt ?? null,
      cancelReason: d.cancelReason ?? null,
      lastFinishedMs: d.lastFinishedMs,
      cancelWhenSettled: d.cancelWhenSettled,
    };
    this.changes.push(
      d.attempt
        ? { kind: 'attempt_ended', notification, attempt: d.attempt, settled }
        : { kind: 'notification_cancelled', notification, settled },
    );
  }
}

/** Never called: a kind of record without its case in `apply` leaves `rec` not `never`, a compile error. */
function unappliedKind(rec: never): never {
  throw new Error(`no replay of record ${JSON.stringify(rec)}`);
}

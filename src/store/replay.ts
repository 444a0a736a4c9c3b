import type { User } from '../auth/users.js';
import type { Change } from '../change-stream.js';
import { BodyFile, type StoredBody } from '../contract/index.js';
import type { CredentialInput } from '../delivery/credential-schema.js';
import { type Attempt, buildNotification, type NotificationRecord } from '../delivery/notification.js';
import type { Settled } from '../delivery/outbox-state.js';
import type { TrustedCertificate } from '../delivery/trust.js';
import { type ChangeOwner, RESET } from '../model/change-sink.js';
import type { ClockMark, KeptChange, NotificationData } from '../model/changes.js';
import type { KeptServices } from './change-records.js';
import { changesOf, FORMAT_2_SHAPES, type Format2Kind } from './format-2.js';
import type { KeptRecord } from './kinds.js';

type KeptCredential = Extract<KeptChange, { k: 'credential_added' }>['d']['credential'];

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
 * Every kind of change a store's `apply` makes at a restart: all but the ones that tell of something
 * no store keeps (routing, the clock: the data dir keeps where the clock stood) and the configuration
 * (users, credentials, trust), put back through their mutators so that a preload wins.
 */
export type ReplayedChange = Exclude<
  Change,
  { kind: 'event_routed' | 'clock_started' | 'clock_advanced' | ConfigurationChange['k'] }
>;
type ConfigurationChange = Extract<KeptChange, { k: `${'user' | 'credential' | 'trust'}_${string}` }>;

const faults = (s: KeptServices) => s.auth.faults;
const outages = (s: KeptServices) => s.delivery.outages;
const journal = (s: KeptServices) => s.auth.journal;
const tokens = (s: KeptServices) => s.auth.tokens;
const reservations = (s: KeptServices) => s.reservations.state;
const outbox = (s: KeptServices) => s.delivery.outbox.state;

/** The store whose `apply` makes each kind (decision 0212): a kind without one does not compile. */
const OWNER: {
  [K in Exclude<ReplayedChange['kind'], 'reset'>]: (
    s: KeptServices,
  ) => ChangeOwner<Extract<ReplayedChange, { kind: K }>>;
} = {
  fault_added: faults,
  fault_removed: faults,
  faults_cleared: faults,
  fault_used: faults,
  outage_added: outages,
  outage_removed: outages,
  outages_cleared: outages,
  outage_used: outages,
  outages_of_credential_removed: outages,
  call_journaled: journal,
  token_issued: tokens,
  token_revoked: tokens,
  reservation_saved: reservations,
  notification_created: outbox,
  attempt_started: outbox,
  attempt_ended: outbox,
  notification_cancelled: outbox,
  batch_started: outbox,
  batch_done: outbox,
  notifications_dropped: outbox,
};

/**
 * Hands a change read back to the `apply` of its store (reset: of every store it forgets): replay
 * runs the code that made it live.
 */
export function applyReplayed(s: KeptServices, change: ReplayedChange): void {
  if (change.kind === 'reset')
    for (const store of [faults, outages, journal, tokens, reservations, outbox]) store(s).apply(change);
  else (OWNER[change.kind](s) as ChangeOwner<ReplayedChange>).apply(change);
}

/**
 * The reader of a data dir's records (snapshot then journal): each record becomes the change it is
 * (format 3) or the changes it stands for (format 2), in order, for the stores' own `apply`. It keeps only
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
  /** PEM text and certificate by SHA-256 fingerprint. */
  readonly trust = new Map<string, { text: string; certificate: TrustedCertificate }>();
  /** Each reservation's latest body: a notification's record may name it (`gzOf`). */
  readonly #bodies = new Map<number, StoredBody>();
  /** The notifications read so far, by id: a change record names its notification by id. */
  readonly #notifications = new Map<string, NotificationRecord>();
  readonly #warnings = new Map<string, readonly string[]>();
  /**
   * One stand-in array for the warnings that records named by their credential, per credential as it
   * was read then (by id when none was): replaced by its warnings once the credentials are back.
   */
  readonly #standIns = new Map<KeptCredential | string, string[]>();

  /** How many reservations and notifications were read back (for the log). */
  counts(): { reservations: number; notifications: number } {
    return { reservations: this.#bodies.size, notifications: this.#notifications.size };
  }

  /** Reads one record: a change (format 3), or a record of format 2 turned into its changes. */
  apply(rec: KeptRecord): void {
    if (!isFormat2(rec)) {
      this.#read(rec, rec.b);
      return;
    }
    const trusted = (fingerprint: string) => this.trust.get(fingerprint)?.certificate;
    for (const change of changesOf(rec, trusted)) this.#read(change, rec.b);
  }

  /** Reads one change as kept; exhaustive: a kind without a case here does not compile. */
  #read(change: KeptChange, b: Buffer | undefined): void {
    if (this.#configuration(change)) return;
    const { k, d } = change;
    switch (k) {
      case 'clock_started':
      case 'clock_advanced':
        this.clock = d.mark;
        break;
      case 'reservation_saved': {
        const gz = BodyFile.shared.keep(b!);
        this.#bodies.set(d.record.bookingId, gz);
        this.changes.push({ kind: k, ...d, record: { ...d.record, gz } });
        break;
      }
      case 'notification_created': {
        const notification = this.#created(d.notification, b);
        this.#notifications.set(notification.id, notification);
        this.changes.push({ kind: k, notification });
        break;
      }
      case 'attempt_started': {
        const notification = this.#notifications.get(d.id);
        if (notification) this.changes.push({ kind: k, notification, attempt: d.attempt });
        break;
      }
      case 'attempt_ended':
      case 'notification_cancelled': {
        // None: forgotten by a reset after the attempt started.
        const notification = this.#notifications.get(d.id);
        if (!notification) break;
        const settled: Settled = { ...UNSETTLED, ...d.settled };
        this.changes.push(
          k === 'attempt_ended'
            ? { kind: k, notification, attempt: d.attempt, settled }
            : { kind: 'notification_cancelled', notification, settled },
        );
        break;
      }
      case 'notifications_dropped':
        for (const id of d.ids) this.#notifications.delete(id);
        this.changes.push({ kind: k, ...d });
        break;
      case 'batch_started':
      case 'batch_done': {
        const ms = Date.parse(k === 'batch_started' ? d.at : d.result.at);
        if (this.lastBatchMs === undefined || ms > this.lastBatchMs) this.lastBatchMs = ms;
        this.changes.push({ kind: k, ...d } as ReplayedChange);
        break;
      }
      case 'reset':
        // product rule "Admin API": reset forgets these; users, credentials and trust stay.
        this.changes.push(RESET);
        this.#bodies.clear();
        this.#notifications.clear();
        this.#standIns.clear();
        break;
      default:
        // Faults, outages, tokens, calls: the change read back is the change.
        this.changes.push({ kind: k, ...d } as ReplayedChange);
    }
  }

  /** Users, credentials and trusted certificates: kept as they stand, for `#restoreConfiguration`. */
  #configuration({ k, d }: KeptChange): boolean {
    switch (k) {
      case 'user_added':
      case 'user_replaced':
        this.users.set(d.user.username, d.user);
        return true;
      case 'user_removed':
        this.users.delete(d.username);
        return true;
      case 'credential_added':
      case 'credential_replaced':
        this.credentials.set(d.credential.id, d.credential);
        return true;
      case 'credential_removed':
        this.credentials.delete(d.id);
        return true;
      case 'trust_added':
        this.trust.set(d.certificate.fingerprint256, { text: d.pem, certificate: d.certificate });
        return true;
      case 'trust_removed':
        this.trust.delete(d.certificate.fingerprint256);
        return true;
      default:
        return false;
    }
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
      const by = this.credentials.get(d.warningsOf) ?? d.warningsOf;
      const standIn = this.#standIns.get(by) ?? [];
      this.#standIns.set(by, standIn);
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
   * credential now when it is the one they named, else `ofFormer` the credential as it was before it
   * was replaced or deleted.
   */
  resolveWarnings(
    of: (credentialId: string) => readonly string[] | undefined,
    ofFormer: (credential: CredentialInput) => readonly string[],
  ): void {
    if (this.#standIns.size === 0) return;
    const real = new Map<readonly string[], readonly string[]>();
    for (const [by, standIn] of this.#standIns) {
      const id = typeof by === 'string' ? by : by.id;
      const now = typeof by === 'string' || this.credentials.get(id) === by;
      real.set(standIn, now ? (of(id) ?? NO_WARNINGS) : ofFormer(by));
    }
    for (const n of this.#notifications.values()) n.warnings = real.get(n.warnings) ?? n.warnings;
    this.#standIns.clear();
  }
}

const isFormat2 = (rec: KeptRecord): rec is Extract<KeptRecord, { k: Format2Kind }> =>
  Object.hasOwn(FORMAT_2_SHAPES, rec.k);

import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { Clock } from '../clock/index.js';
import { OPTION_NAMES, type SettingNames } from '../config/names.js';
import { type NotificationBody, packBody, type StoredBody } from '../contract/index.js';
import { InputError } from '../errors.js';
import type { Logger } from '../log.js';
import { type ChangeSink, RESET } from '../model/change-sink.js';
import type { NotificationRefShape } from '../model/delivery.js';
import { type CredentialChange, CredentialStore } from './credentials.js';
import { type OutageChange, OutageStore } from './outages.js';
import { type DrainResult, Outbox, type OutboxChange } from './outbox.js';
import { route } from './routing.js';
import { HttpSender, type Sender } from './sender.js';
import { type TrustChange, type TrustedCertificate, type TrustSource, TrustStore } from './trust.js';

export interface DeliverySettings {
  responseTimeoutMs: number;
  allowHttp: boolean;
  caFile?: string | undefined;
  deliveryConcurrency: number;
  /** Notifications kept (decision 0127); absent or 0: no limit. */
  notificationRetention?: number;
  /** Whether retention may drop exhausted notifications no resend took (decision 0211). */
  retentionDropsExhausted?: boolean;
}

export interface DeliveryDeps {
  clock: Clock;
  log: Logger;
  /** Defaults to an HttpSender built from the settings. */
  sender?: Sender;
  /** How messages name the settings `caFile` and `allowHttp` (default: as options). */
  names?: SettingNames;
  /** Told of every change of credentials, trust, outages and the outbox (src/change-stream.ts). */
  changes?: ChangeSink<DeliveryChange>;
}

/** An event routed: what the lifecycle changed and where its notifications went (the live stream's `event`). */
export interface EventRouted {
  kind: 'event_routed';
  event: string;
  at: string;
  reservations: ReadonlyArray<{ bookingId: number; bookingNumber: string; status: string }>;
  notifications: readonly string[];
  routedTo: number;
  /** The ids of the credentials it was routed to, in routing order. */
  credentials: readonly string[];
}

/** What the delivery engine changes (src/change-stream.ts). */
export type DeliveryChange = CredentialChange | TrustChange | OutageChange | OutboxChange | EventRouted;

/** A notification an event created, as EventResult lists it. */
export type NotificationRef = z.output<typeof NotificationRefShape>;

/** What routing one event's bodies did (merged into the admin EventResult). */
export interface DispatchResult {
  notifications: NotificationRef[];
  /** Distinct credentials that received at least one notification. */
  routedTo: number;
  message: string;
  warnings: string[];
}

/** Credentials, routing, the outbox and the sender of one emulator: the delivery engine. */
export class DeliveryService {
  readonly credentials: CredentialStore;
  readonly outbox: Outbox;
  /** Certificates trusted besides the system roots; kept across reset, like credentials. */
  readonly trustStore: TrustStore;
  /** Simulated receiver outages (POST /__admin/outages); forgotten on reset, like faults. */
  readonly outages: OutageStore;
  readonly #sender: Sender;
  readonly #httpSender: HttpSender | undefined;
  readonly #names: SettingNames;
  readonly #changes: ChangeSink<DeliveryChange> | undefined;

  constructor(
    private readonly settings: DeliverySettings,
    deps: DeliveryDeps,
  ) {
    this.#names = deps.names ?? OPTION_NAMES;
    this.#changes = deps.changes;
    this.credentials = new CredentialStore(settings.allowHttp, this.#names, deps.changes);
    this.trustStore = new TrustStore(deps.changes, (pems) => this.#httpSender?.trust(pems));
    this.#httpSender = deps.sender
      ? undefined
      : new HttpSender({ timeoutMs: settings.responseTimeoutMs, maxSockets: settings.deliveryConcurrency });
    this.#sender = deps.sender ?? this.#httpSender!;
    this.outages = new OutageStore({
      now: () => deps.clock.now(),
      hasCredential: (id) => this.credentials.get(id) !== undefined,
      credentialIds: () => this.credentials.list().map((c) => c.id),
      ...(deps.changes ? { changes: deps.changes } : {}),
    });
    this.outbox = new Outbox({
      outages: this.outages,
      clock: deps.clock,
      sender: this.#sender,
      log: deps.log,
      concurrency: settings.deliveryConcurrency,
      retention: settings.notificationRetention ?? 0,
      retentionDropsExhausted: settings.retentionDropsExhausted === true,
      ...(deps.changes ? { changes: deps.changes } : {}),
    });
  }

  /** Reads the `caFile` setting and trusts it besides the system roots; a bad file fails start-up. */
  async loadCaFile(): Promise<void> {
    const file = this.settings.caFile;
    if (!file) return;
    const where = `${this.#names.name('caFile')} (${file})`;
    let pem: string;
    try {
      pem = await readFile(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message);
      throw new InputError('ca_file_unreadable', `${where}: cannot read it (${reason}).`, {
        path: 'caFile',
        file,
      });
    }
    try {
      this.trust(pem, 'ca-file', where);
    } catch (err) {
      // The file keeps its own stable code; the message says what was wrong inside it.
      if (err instanceof InputError) throw new InputError('ca_file_invalid', err.message, { path: 'caFile' });
      throw err;
    }
  }

  /** Trusts the PEM certificates in `text` for later attempts; answers the ones that were new. */
  trust(text: string, source: TrustSource, where: string): TrustedCertificate[] {
    return this.trustStore.add(text, source, where);
  }

  /** Stops trusting one certificate (by SHA-256 fingerprint) for later attempts; answers it if it was trusted. */
  untrust(fingerprint: string): TrustedCertificate | undefined {
    return this.trustStore.remove(fingerprint);
  }

  /**
   * Routes what an event (or a manual redelivery) emitted, as `dispatch` does, and tells of the event
   * and where it went (the info log's and the live stream's `event`).
   */
  routeEvent(
    lifecycle: Omit<EventRouted, 'kind' | 'notifications' | 'routedTo' | 'credentials'> & {
      emit: Parameters<DeliveryService['dispatch']>[0];
    },
  ): DispatchResult {
    const routed = this.dispatch(lifecycle.emit);
    this.#changes?.emitMade({
      kind: 'event_routed',
      event: lifecycle.event,
      at: lifecycle.at,
      reservations: lifecycle.reservations,
      notifications: routed.notifications.map((n) => n.id),
      routedTo: routed.routedTo,
      credentials: [...new Set(routed.notifications.map((n) => n.credentialId))],
    });
    return routed;
  }

  /**
   * Routes each emitted body to every matching credential, one notification per body × credential
   * (spec "Events"), and starts the first attempts in the background. A body's `gz` (its packed bytes,
   * as the reservation store emits them) is shared by its notifications; without it, it is made once.
   */
  dispatch(
    emit: ReadonlyArray<{ bookingId: number; body: NotificationBody; gz?: StoredBody }>,
  ): DispatchResult {
    const notifications: NotificationRef[] = [];
    const credentialIds = new Set<string>();
    const warnings = new Set<string>();
    const credentials = this.credentials.list();
    for (const { bookingId, body, gz } of emit) {
      let packed = gz;
      for (const credential of route(credentials, body)) {
        packed ??= packBody(body);
        const n = this.outbox.create(credential, bookingId, body, packed);
        credentialIds.add(credential.id);
        for (const w of n.warnings) warnings.add(`${n.id}: ${w}`);
        notifications.push({
          id: n.id,
          credentialId: n.credentialId,
          bookingId: n.bookingId,
          state: n.state,
        });
      }
    }
    const count = credentialIds.size;
    let message = `routed to ${count} credential${count === 1 ? '' : 's'}`;
    if (count === 0) message += noMatchHint(credentials.length, emit[0]?.body);
    return { notifications, routedTo: count, message, warnings: [...warnings] };
  }

  /**
   * Deletes a credential; its pending notifications are no longer redelivered: each becomes
   * `cancelled` with reason `credential_deleted` (decision 0030).
   */
  removeCredential(id: string): void {
    this.credentials.remove(id);
    this.outbox.cancelCredential(id, 'credential_deleted');
    this.outages.removeCredential(id);
  }

  /** Forgets notifications, batch history and outages; credentials stay. */
  reset(): void {
    this.outbox.reset();
    this.outages.apply(RESET);
  }

  /** Lets attempts in flight end within `graceMs` at a stop; see `Outbox.drain` (decision 0043). */
  drain(graceMs: number): Promise<DrainResult> {
    return this.outbox.drain(graceMs);
  }

  close(): void {
    this.outbox.close();
    this.#sender.close();
  }
}

function noMatchHint(credentialCount: number, body: NotificationBody | undefined): string {
  if (credentialCount === 0) return ': no credentials are configured; add one with POST /__admin/credentials';
  if (!body) return '';
  const r = body.Reservation;
  return `: no credential's filters match PCCBook ${r.PCCBook}, PCCIssue ${r.PCCIssue}, IdWeb ${body.Product.IdWeb}`;
}

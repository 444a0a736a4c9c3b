import { type JournalEntry, MAX_JOURNAL_ENTRIES } from '../auth/journal.js';
import type { Clock } from '../clock/index.js';
import { batchesBetween, HOUR_MS } from '../clock/schedule.js';
import type { BatchResult } from '../delivery/batches.js';
import type { OutboxRecorder, StartedAttempt } from '../delivery/outbox.js';
import type { Logger } from '../log.js';
import { DataDir } from './data-dir.js';
import type { StoreRecord } from './records.js';
import { type ClockMark, ReplayedState } from './replay.js';
import {
  changeRecord,
  credentialData,
  type KeptServices,
  notificationRecord,
  reservationRecord,
  stateRecords,
} from './snapshot.js';

/** What attaching needs of the emulator: its services, its clock and its log. */
export interface AttachTarget extends KeptServices {
  clock: Clock;
  log: Logger;
}

/**
 * The emulator's state in a data dir (decision 0080). `open` reads it back (synchronously, before the
 * clock is built, which starts where the data dir left it); `attach` puts it into the services, ends
 * what a crash cut off, handles the batch instants that passed while the emulator was down, and from
 * then on writes every change as it is made, before the admin API answers it.
 */
export class PersistentState {
  readonly #dir: DataDir;
  readonly #replayed: ReplayedState;
  #target: AttachTarget | undefined;
  readonly #started = new Map<string, StartedAttempt>();
  #batchRunning: string | undefined;
  #compactQueued = false;
  /** After a compaction failed: not tried again before this (ms since the epoch). */
  #compactRetryMs = 0;

  private constructor(dir: DataDir, replayed: ReplayedState) {
    this.#dir = dir;
    this.#replayed = replayed;
  }

  /** Opens `dir` (creating it), takes its lock and reads it back. */
  static open(dir: string, port: number): PersistentState {
    const replayed = new ReplayedState();
    return new PersistentState(
      DataDir.open(dir, port, (rec) => replayed.apply(rec)),
      replayed,
    );
  }

  get dir(): string {
    return this.#dir.dir;
  }

  /**
   * Where a manual or compressed clock starts: where the data dir left it (a compressed clock ran on
   * while the emulator was down, as if it had not stopped); undefined for a real clock or an empty dir.
   */
  clockStart(mode: string, wallNowMs = Date.now()): Date | undefined {
    const mark = this.#replayed.clock;
    if (mode === 'real' || !mark) return undefined;
    let ms = mark.emuMs;
    if (mode === 'compressed' && mark.mode === 'compressed')
      ms += Math.max(0, Math.floor(((wallNowMs - mark.wallMs) * HOUR_MS) / mark.hourMs));
    return new Date(Math.max(ms, this.#replayed.lastBatchMs ?? ms));
  }

  /** Puts the state read back into the services and starts writing their changes. */
  attach(t: AttachTarget): void {
    const r = this.#replayed;
    const { log, clock } = t;
    for (const notice of this.#dir.notices) log.warn({ dataDir: this.dir }, notice);
    // What the config or scenario preloaded (and the CA file) is kept like an admin change, so the
    // journal and a snapshot always hold the same.
    const preloaded: StoreRecord[] = [
      ...t.auth.users.list().map((u): StoreRecord => ({ k: 'user+', d: u })),
      ...t.delivery.credentials.list().map((c): StoreRecord => ({ k: 'cred+', d: credentialData(c) })),
      ...trustRecords(t),
    ];
    const kept = this.#restoreConfiguration(t);
    for (const [, res] of r.reservations) t.reservations.restore(res, r.eventSequence);
    t.auth.faults.restore(r.faults);
    t.delivery.outages.restore(r.outages);
    t.auth.journal.restore(r.requests.slice(-MAX_JOURNAL_ENTRIES));
    for (const [, tok] of r.tokens) t.auth.tokens.restore(tok);
    const nowIso = clock.now().toISOString();
    const interrupted = r.interruptAttempts(nowIso);
    const batches = r.batches.slice();
    const cutBatch =
      r.batchRunning === undefined
        ? undefined
        : interruptedBatch(r.batchRunning, r.notifications.values(), nowIso);
    if (cutBatch) batches.push(cutBatch);

    r.resolveWarnings((id) => t.delivery.credentials.get(id)?.warnings);
    this.#target = t;
    this.#hook(t);
    for (const rec of preloaded) this.#append(rec);
    t.delivery.outbox.restore(r.notifications.values(), batches, r.droppedNotifications);
    for (const n of interrupted) this.#append(changeRecord(n, n.attempts.at(-1)));
    if (cutBatch) this.#append({ k: 'b', d: cutBatch });
    log.info(
      {
        dataDir: this.dir,
        ...kept,
        reservations: r.reservations.size,
        notifications: r.notifications.size,
        interruptedAttempts: interrupted.length,
        ...this.#dir.sizes(),
      },
      `data dir read back: ${r.notifications.size} notifications, ${r.reservations.size} reservations${interrupted.length ? `, ${interrupted.length} attempts found interrupted (at-least-once: they stay pending)` : ''}`,
    );
    this.#catchUp(t, r);
    // Not before ready: the server answers first, the snapshot is written right after.
    if (this.#dir.wantsCompaction()) setImmediate(() => this.#compactQuietly());
  }

  /** Folds everything into a new snapshot (after a reset: only what reset kept). */
  compact(): void {
    const t = this.#target;
    if (!t) return;
    this.#compactQueued = false;
    this.#dir.compact(stateRecords(t, this.#mark(t.clock), this.#started, this.#batchRunning));
  }

  /**
   * A compaction nobody waits for, in the background (decision 0127): its duration is logged; a
   * failure is logged (the journals still hold everything) and tried again later, never thrown.
   */
  #compactQuietly(): void {
    const t = this.#target;
    if (!t) return;
    this.#compactQueued = false;
    const started = performance.now();
    let state: Iterable<StoreRecord>;
    try {
      state = stateRecords(t, this.#mark(t.clock), this.#started, this.#batchRunning);
    } catch (err) {
      t.log.warn({ dataDir: this.dir, err }, 'data dir: compaction could not read the state');
      return;
    }
    this.#dir.compactInBackground(state).then(
      (done) => {
        if (!done) return;
        const ms = Math.round(performance.now() - started);
        t.log.info(
          {
            dataDir: this.dir,
            compactionMs: ms,
            captureMs: Math.round(done.captureMs),
            records: done.records,
            bytes: done.bytes,
          },
          `data dir compacted in ${ms} ms (${done.records} records, ${done.bytes} bytes; the event loop was held ${Math.round(done.captureMs)} ms to take the state)`,
        );
      },
      (err: unknown) => {
        this.#compactRetryMs = Date.now() + COMPACT_RETRY_MS;
        t.log.warn(
          { dataDir: this.dir, err },
          `data dir: compaction failed; the journal keeps every change, retrying in ${COMPACT_RETRY_MS / 1000} s`,
        );
      },
    );
  }

  /**
   * Why the data dir cannot keep changes (`data dir not writable: …`), or undefined while it can:
   * `GET /__admin/health` answers `degraded` with it (decision 0125).
   */
  degraded(): string | undefined {
    const failure = this.#dir.failure;
    return failure && `data dir not writable: ${failure.cause} (since ${failure.since})`;
  }

  /** Reset forgot reservations, notifications, tokens, journal and faults: the data dir forgets them too. */
  reset(): void {
    this.#started.clear();
    this.#batchRunning = undefined;
    this.compact();
  }

  /** The port the server listens on, for the lock file (it may have been 0 when the lock was taken). */
  listening(port: number): void {
    this.#dir.setPort(port);
  }

  close(): void {
    this.#target?.delivery.outbox.record(undefined);
    this.#dir.close();
  }

  #append(rec: StoreRecord): void {
    const failing = this.#dir.failure;
    try {
      this.#dir.append(rec);
    } catch (err) {
      if (!failing)
        this.#target?.log.error(
          { dataDir: this.dir, err },
          'data dir not writable: changes are answered 503 and not kept until a write succeeds',
        );
      throw err;
    }
    if (failing)
      this.#target?.log.warn(
        { dataDir: this.dir, since: failing.since },
        'data dir writable again: changes are kept again',
      );
    if (!this.#compactQueued && Date.now() >= this.#compactRetryMs && this.#dir.wantsCompaction()) {
      this.#compactQueued = true;
      setImmediate(() => this.#compactQuietly());
    }
  }

  #mark(clock: Clock): ClockMark {
    return {
      mode: clock.mode,
      emuMs: clock.now().getTime(),
      wallMs: Date.now(),
      hourMs: clock.describe().hourMs ?? HOUR_MS,
    };
  }

  /** Users, credentials and trusted certificates; a config or scenario preload of the same name wins. */
  #restoreConfiguration(t: AttachTarget): Record<string, number> {
    const r = this.#replayed;
    let users = 0;
    let credentials = 0;
    const skipped: string[] = [];
    for (const [name, u] of r.users) {
      if (t.auth.users.get(name)) continue; // preloaded again at this start
      t.auth.users.add(u, `data dir user ${name}`);
      users++;
    }
    for (const [id, c] of r.credentials) {
      if (t.delivery.credentials.get(id)) continue;
      const { omitAuthorization, ...input } = c as typeof c & { omitAuthorization?: true };
      try {
        t.delivery.credentials.add(
          input,
          `data dir credential ${id}`,
          omitAuthorization ? { omitAuthorization } : {},
        );
        credentials++;
      } catch (err) {
        // e.g. an http:// receiver kept from a run with --allow-http, read back without it.
        skipped.push(`credential ${id}: ${(err as Error).message}`);
      }
    }
    for (const [, { text, source }] of r.trust)
      t.delivery.trust(text, source, 'a certificate kept in the data dir');
    for (const s of skipped) t.log.warn({ dataDir: this.dir }, `data dir: not restored: ${s}`);
    return { users, credentials, trusted: r.trust.size };
  }

  /** From now on every change is written before it is answered. */
  #hook(t: AttachTarget): void {
    const { auth, delivery, reservations, clock } = t;
    const append = (rec: StoreRecord) => this.#append(rec);

    const addUser = auth.users.add.bind(auth.users);
    auth.users.add = (input, where) => {
      const u = addUser(input, where);
      append({ k: 'user+', d: u });
      return u;
    };
    const replaceUser = auth.users.replace.bind(auth.users);
    auth.users.replace = (username, input) => {
      const u = replaceUser(username, input);
      append({ k: 'user+', d: u });
      return u;
    };
    const removeUser = auth.users.remove.bind(auth.users);
    auth.users.remove = (username) => {
      removeUser(username);
      append({ k: 'user-', d: { username } });
    };

    const faults = auth.faults;
    const saveFaults = () => append({ k: 'faults', d: { faults: faults.list() } });
    const addFault = faults.add.bind(faults);
    faults.add = (input) => {
      const f = addFault(input);
      saveFaults();
      return f;
    };
    const removeFault = faults.remove.bind(faults);
    faults.remove = (id) => {
      removeFault(id);
      saveFaults();
    };
    const clearFaults = faults.reset.bind(faults);
    faults.reset = () => {
      clearFaults();
      saveFaults();
    };
    const takeFault = faults.take.bind(faults);
    faults.take = (version, variant) => {
      const f = takeFault(version, variant);
      if (f) saveFaults(); // a count went down or a rule was used up
      return f;
    };

    const outages = delivery.outages;
    const saveOutages = () => append({ k: 'outages', d: { outages: outages.list() } });
    const addOutage = outages.add.bind(outages);
    outages.add = (input) => {
      const o = addOutage(input);
      saveOutages();
      return o;
    };
    const removeOutage = outages.remove.bind(outages);
    outages.remove = (id) => {
      removeOutage(id);
      saveOutages();
    };
    const takeOutage = outages.take.bind(outages);
    outages.take = (credentialId, atMs) => {
      const o = takeOutage(credentialId, atMs);
      if (o) saveOutages(); // a count went down, failedAttempts went up
      return o;
    };
    const clearOutages = outages.reset.bind(outages);
    outages.reset = () => {
      clearOutages();
      saveOutages();
    };
    const dropOutages = outages.removeCredential.bind(outages);
    outages.removeCredential = (credentialId) => {
      dropOutages(credentialId);
      saveOutages();
    };

    const record = auth.journal.record.bind(auth.journal);
    auth.journal.record = (entry) => {
      const full: JournalEntry = record(entry);
      append({ k: 'req', d: full });
      return full;
    };
    const issue = auth.tokens.issue.bind(auth.tokens);
    auth.tokens.issue = (username, version) => {
      const tok = issue(username, version);
      append({
        k: 'tok',
        d: { token: tok.token, username, version, issuedAtMs: tok.issuedAt.getTime(), revoked: false },
      });
      return tok;
    };
    const revoke = auth.tokens.revoke.bind(auth.tokens);
    auth.tokens.revoke = (token) => {
      revoke(token);
      append({ k: 'tok-', d: { token } });
    };

    const keepReservations = <R extends { reservations: Array<{ bookingId: number }> }>(result: R): R => {
      for (const s of result.reservations) {
        const kept = reservations.stored(s.bookingId);
        if (kept) append(reservationRecord(kept.record, kept.sequence));
      }
      return result;
    };
    const apply = reservations.apply.bind(reservations);
    reservations.apply = (raw) => keepReservations(apply(raw));
    const redeliver = reservations.redeliver.bind(reservations);
    reservations.redeliver = (bookingId, status) => keepReservations(redeliver(bookingId, status));

    const creds = delivery.credentials;
    const addCredential = creds.add.bind(creds);
    creds.add = (input, where, options) => {
      const c = addCredential(input, where, options);
      append({ k: 'cred+', d: credentialData(c) });
      return c;
    };
    const replaceCredential = creds.replace.bind(creds);
    creds.replace = (id, input) => {
      const c = replaceCredential(id, input);
      append({ k: 'cred+', d: credentialData(c) });
      return c;
    };
    const removeCredential = creds.remove.bind(creds);
    creds.remove = (id) => {
      removeCredential(id);
      append({ k: 'cred-', d: { id } });
    };
    const trust = delivery.trust.bind(delivery);
    delivery.trust = (text, source, where) => {
      const added = trust(text, source, where);
      if (added.length > 0) {
        const pems = delivery.trustStore.pems();
        const all = delivery.trustStore.list();
        for (const a of added) {
          const i = all.findIndex((x) => x.fingerprint256 === a.fingerprint256);
          append({ k: 'trust+', d: { text: pems[i], source, fingerprint: a.fingerprint256 } });
        }
      }
      return added;
    };
    const untrust = delivery.untrust.bind(delivery);
    delivery.untrust = (fingerprint) => {
      const removed = untrust(fingerprint);
      if (removed) append({ k: 'trust-', d: { fingerprint: removed.fingerprint256 } });
      return removed;
    };

    const recorder: OutboxRecorder = {
      created: (n) =>
        append(notificationRecord(n, reservations, delivery.credentials.get(n.credentialId)?.warnings)),
      attemptStarted: (n, attempt) => {
        this.#started.set(n.id, attempt);
        append({ k: 'a>', d: { id: n.id, attempt } });
      },
      changed: (n, attempt) => {
        if (attempt) this.#started.delete(n.id);
        append(changeRecord(n, attempt));
      },
      batchStarted: (at) => {
        this.#batchRunning = at;
        append({ k: 'b>', d: { at } });
      },
      dropped: (ids) =>
        append({ k: 'n-', d: { ids, dropped: delivery.outbox.retention().dropped + ids.length } }),
      batchDone: (result) => {
        if (this.#batchRunning === result.at) this.#batchRunning = undefined;
        append({ k: 'b', d: result });
      },
    };
    delivery.outbox.record(recorder);

    // The clock's position: where it stands when it starts, and after every manual advance.
    const start = clock.start.bind(clock);
    clock.start = () => {
      start();
      append({ k: 'clock', d: this.#mark(clock) });
    };
    const advance = clock.advance.bind(clock);
    clock.advance = async (target) => {
      const moved = await advance(target);
      append({ k: 'clock', d: this.#mark(clock) });
      return moved;
    };
  }

  /**
   * Batch instants that passed while the emulator was down (real and compressed clocks): the latest
   * runs now, the earlier ones are recorded as skipped with the reason. Never silently lost.
   */
  #catchUp(t: AttachTarget, r: ReplayedState): void {
    const mark = r.clock;
    if (t.clock.mode === 'manual' || !mark) return;
    const fromMs = Math.max(mark.emuMs, r.lastBatchMs ?? mark.emuMs);
    const nowMs = t.clock.now().getTime();
    const missed = batchesBetween(fromMs, nowMs);
    if (missed.length === 0) return;
    const latest = missed.pop()!;
    const down = `the emulator was not running at this instant (its data dir's last record before it is at ${new Date(fromMs).toISOString()}, restarted at ${new Date(nowMs).toISOString()} emulator time)`;
    for (const at of missed)
      t.delivery.outbox.recordSkipped(
        new Date(at),
        `${down}; the catch-up batch of ${new Date(latest).toISOString()} retried what was due`,
      );
    t.log.info(
      { missed: missed.length + 1 },
      `data dir: running the catch-up batch of ${new Date(latest).toISOString()}`,
    );
    void t.delivery.outbox.runBatch(new Date(latest));
  }
}

/** How long a failed compaction waits before it is tried again. */
const COMPACT_RETRY_MS = 60_000;

/** One record per trusted certificate (PEM text, source, fingerprint). */
function trustRecords(t: AttachTarget): StoreRecord[] {
  const pems = t.delivery.trustStore.pems();
  return t.delivery.trustStore
    .list()
    .map((c, i) => ({ k: 'trust+', d: { text: pems[i], source: c.source, fingerprint: c.fingerprint256 } }));
}

/** The result of a batch a crash cut off, counted from the attempts that carry its instant. */
function interruptedBatch(
  at: string,
  notifications: Iterable<{
    attempts: readonly { batchAt?: string | undefined; outcome: string; statusCode?: number | undefined }[];
    state: string;
  }>,
  restartIso: string,
): BatchResult {
  const result: BatchResult = {
    at,
    attempted: 0,
    delivered: 0,
    failed: 0,
    exhausted: 0,
    reason: `interrupted: the emulator stopped while this batch ran (found at the restart of ${restartIso}); its attempts in flight are recorded with outcome interrupted_by_crash`,
  };
  for (const n of notifications) {
    const a = n.attempts.find((x) => x.batchAt === at);
    if (!a) continue;
    result.attempted++;
    if (a.outcome === 'http_status' && a.statusCode === 200) result.delivered++;
    else result.failed++;
    if (n.state === 'exhausted' && n.attempts.at(-1) === a) result.exhausted++;
  }
  return result;
}

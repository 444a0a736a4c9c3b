import type { Change, ChangeStream } from '../change-stream.js';
import { type Clock, type ClockMode, clockMark, resumeMs } from '../clock/index.js';
import { catchUpBatches, repairCrash } from '../delivery/crash-repair.js';
import type { Logger } from '../log.js';
import { type KeptServices, recordOf } from './change-records.js';
import { DataDir } from './data-dir.js';
import { applyTo, RecordReader, replay } from './replay.js';
import { configurationChanges, stateRecords } from './snapshot.js';

/** What attaching needs of the emulator: its services, its clock, its log and its change stream. */
export interface AttachTarget extends KeptServices {
  clock: Clock;
  log: Logger;
  changes: ChangeStream;
}

/**
 * The emulator's state in a data dir (decision 0080), read back before the clock is built (it starts
 * where it was left); `attach` restores it and keeps every change before it is made.
 */
export class PersistentState {
  readonly #replayed = new RecordReader();
  readonly #dir: DataDir;
  #target: AttachTarget | undefined;
  #compactQueued = false;
  /** After a compaction failed: not tried again before this (ms since the epoch). */
  #compactRetryMs = 0;

  /** Opens `dir` (creating it), takes its lock and reads it back. */
  constructor(dir: string, port: number, options: { acceptDataLoss?: boolean } = {}) {
    this.#dir = DataDir.open(dir, port, (rec) => this.#replayed.apply(rec), options);
  }

  get dir(): string {
    return this.#dir.dir;
  }

  /** Where a manual or compressed clock starts: where it was left, never before the last batch run. */
  clockStart(mode: ClockMode, wallNowMs = Date.now()): Date | undefined {
    const { clock, lastBatchMs } = this.#replayed;
    const ms = clock && resumeMs(clock, mode, wallNowMs);
    return ms === undefined ? undefined : new Date(Math.max(ms, lastBatchMs ?? ms));
  }

  /** Puts the state read back into the services and starts writing their changes. */
  attach(t: AttachTarget): void {
    const r = this.#replayed;
    const { log, clock } = t;
    for (const notice of this.#dir.notices) log.warn({ dataDir: this.dir }, notice);
    // What the config or scenario preloaded is kept like an admin change; it wins over what was read back.
    const preloaded = configurationChanges(t);
    const skipped = replay(t, r.changes);
    for (const change of preloaded) applyTo(t, change);
    for (const s of skipped) log.warn({ dataDir: this.dir }, `data dir: not restored: ${s}`);
    this.#target = t;
    // The probe: while writes fail, a record that changes nothing is tried before a writer that
    // cannot undo its work starts it.
    t.changes.keep(
      (change) => this.#keep(t, change),
      () => {
        if (this.#dir.failure) this.#keep(t, { kind: 'clock_started' });
      },
    );
    for (const change of preloaded) this.#keep(t, change);
    const interrupted = repairCrash(t.delivery.outbox, t.changes, clock.now().toISOString());
    t.delivery.outbox.resume();
    const reservations = t.reservations.state.byId.size;
    const notifications = t.delivery.outbox.state.store.byId.size;
    log.info(
      {
        dataDir: this.dir,
        reservations,
        notifications,
        interruptedAttempts: interrupted,
        ...this.#dir.sizes(),
      },
      `data dir read back: ${notifications} notifications, ${reservations} reservations${interrupted ? `, ${interrupted} attempts found interrupted (at-least-once: they stay pending)` : ''}`,
    );
    // Batch instants that passed while the emulator was down (real and compressed clocks).
    const mark = r.clock;
    if (t.clock.mode !== 'manual' && mark) {
      const from = Math.max(mark.emuMs, r.lastBatchMs ?? mark.emuMs);
      const caught = catchUpBatches(t.delivery.outbox, from, t.clock.now().getTime());
      if (caught)
        log.info({ missed: caught.missed }, `data dir: running the catch-up batch of ${caught.latest}`);
    }
    // Not before ready: the server answers first, the snapshot is written right after.
    if (this.#dir.wantsCompaction()) this.#queueCompaction();
  }

  /** A compaction nobody waits for (decision 0127): logged, and a failure tried again later, never thrown. */
  async #compactQuietly(): Promise<void> {
    const t = this.#target;
    if (!t) return;
    this.#compactQueued = false;
    const started = performance.now();
    try {
      const state = stateRecords(t, clockMark(t.clock));
      // The cut's copies hold the event loop too: counted with what the data dir holds it for.
      const cutMs = performance.now() - started;
      const done = await this.#dir.compactInBackground(state);
      if (!done) return;
      const ms = Math.round(performance.now() - started);
      const heldMs = Math.round(cutMs + done.captureMs);
      const { records, bytes } = done;
      t.log.info(
        { dataDir: this.dir, compactionMs: ms, captureMs: heldMs, records, bytes },
        `data dir compacted in ${ms} ms (${records} records, ${bytes} bytes; the event loop was held ${heldMs} ms to take the state)`,
      );
    } catch (err) {
      this.#compactRetryMs = Date.now() + COMPACT_RETRY_MS;
      t.log.warn(
        { dataDir: this.dir, err },
        `data dir: compaction failed; the journal keeps every change, retrying in ${COMPACT_RETRY_MS / 1000} s`,
      );
    }
  }

  /** Why the data dir cannot keep changes, for `GET /__admin/health` (decision 0125); undefined while it can. */
  degraded(): string | undefined {
    const failure = this.#dir.failure;
    return failure && `data dir not writable: ${failure.cause} (since ${failure.since})`;
  }

  /** The port the server listens on, for the lock file. */
  listening(port: number): void {
    this.#dir.lock.setPort(port);
  }

  close(): void {
    this.#target?.changes.keep(undefined);
    this.#dir.close();
  }

  #queueCompaction(): void {
    if (this.#compactQueued) return;
    this.#compactQueued = true;
    setImmediate(() => void this.#compactQuietly());
  }

  /** The data dir's part of the change stream: a change that cannot be written fails, memory unchanged. */
  #keep(t: AttachTarget, change: Change): void {
    const rec = recordOf(change, t, () => clockMark(t.clock));
    if (!rec) return;
    const failing = this.#dir.failure;
    try {
      this.#dir.append(rec);
    } catch (err) {
      if (!failing)
        t.log.error(
          { dataDir: this.dir, err },
          'data dir not writable: changes are answered 503 and not kept until a write succeeds',
        );
      throw err;
    }
    if (failing)
      t.log.warn(
        { dataDir: this.dir, since: failing.since },
        'data dir writable again: changes are kept again',
      );
    // What reset forgot, the data dir forgets too: the next snapshot holds only what it kept.
    if (change.kind === 'reset' || (Date.now() >= this.#compactRetryMs && this.#dir.wantsCompaction()))
      this.#queueCompaction();
  }
}

/** How long a failed compaction waits before it is tried again. */
const COMPACT_RETRY_MS = 60_000;

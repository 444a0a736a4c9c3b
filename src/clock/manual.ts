import { ConflictError, InputError } from '../errors.js';
import { APPLY_ONLY, type ChangeSink } from '../model/change-sink.js';
import { DURATION_RANGE, INSTANT_RANGE, instantInRange, MAX_DURATION_MS } from './bounds.js';
import { BatchListeners } from './listeners.js';
import { nextBatchAfter } from './schedule.js';
import type { AdvanceResult, AdvanceTarget, BatchListener, Clock, ClockChange, ClockState } from './types.js';

/**
 * A clock that moves only when told; batches run, in order and awaited, as `advance` crosses them.
 * One advance spans at most MAX_DURATION_MS (8,784 batch instants) and yields to the event loop
 * between batches, so other requests keep being answered while it runs (decision 0120).
 */
export class ManualClock implements Clock {
  readonly mode = 'manual' as const;
  #nowMs: number;
  readonly #listeners = new BatchListeners();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    start: Date,
    private readonly onListenerError: (err: unknown) => void = () => {},
    private readonly changes: ChangeSink<ClockChange> = APPLY_ONLY,
  ) {
    this.#nowMs = start.getTime();
  }

  now(): Date {
    return new Date(this.#nowMs);
  }

  nextBatchAt(from: Date = this.now()): Date {
    return new Date(nextBatchAfter(from.getTime()));
  }

  onBatch(listener: BatchListener): () => void {
    return this.#listeners.add(listener);
  }

  /** Advances are serialized: a second call waits for the first, batches included. */
  advance(target: AdvanceTarget): Promise<AdvanceResult> {
    const run = this.#queue
      .then(() => {
        this.changes.ensureKeepable?.();
        return this.#advance(target);
      })
      .then((moved) => {
        // Kept like every other write (decision 0163): a move the data dir cannot keep is refused
        // (503) before it starts; one whose disk filled on the way goes back to where it was (the
        // batches run on the way stay run: their attempts happened).
        try {
          this.changes.emit({ kind: 'clock_advanced', ...moved });
        } catch (err) {
          this.#nowMs = Date.parse(moved.from);
          throw err;
        }
        return moved;
      });
    this.#queue = run.catch(() => {});
    return run;
  }

  async #advance(target: AdvanceTarget): Promise<AdvanceResult> {
    const fromMs = this.#nowMs;
    const toMs = resolveTarget(target, fromMs);
    const batches: string[] = [];
    for (let at = nextBatchAfter(this.#nowMs); at <= toMs; at = nextBatchAfter(at)) {
      this.#nowMs = at;
      const instant = new Date(at);
      batches.push(instant.toISOString());
      await this.#listeners.emit(instant, this.onListenerError);
      // A batch with nothing due settles in microtasks: without this, a long advance holds the loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#nowMs = toMs;
    return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), batches };
  }

  start(): void {}
  stop(): void {}

  describe(): ClockState {
    return { mode: this.mode, now: this.now().toISOString(), nextBatchAt: this.nextBatchAt().toISOString() };
  }
}

function resolveTarget(target: AdvanceTarget, fromMs: number): number {
  const toMs = unboundedTarget(target, fromMs);
  if (toMs - fromMs > MAX_DURATION_MS)
    throw new InputError(
      'advance_too_far',
      `Cannot advance from ${new Date(fromMs).toISOString()} by more than P366D at once (accepted: ${DURATION_RANGE}); advance in steps.`,
      { accepted: [DURATION_RANGE] },
    );
  if (!instantInRange(toMs))
    throw new InputError(
      'advance_too_far',
      `Cannot advance past the latest accepted instant (${INSTANT_RANGE}).`,
      {
        accepted: [INSTANT_RANGE],
      },
    );
  return toMs;
}

function unboundedTarget(target: AdvanceTarget, fromMs: number): number {
  if ('byMs' in target) {
    if (!Number.isFinite(target.byMs) || target.byMs < 0) {
      throw new InputError(
        'invalid_advance',
        `Cannot advance by ${target.byMs} ms: the clock only moves forward.`,
      );
    }
    return fromMs + target.byMs;
  }
  if (target.to === 'next-batch') return nextBatchAfter(fromMs);
  const toMs = target.to.getTime();
  if (Number.isNaN(toMs)) throw new InputError('invalid_advance', 'The target instant is not a valid date.');
  if (toMs < fromMs) {
    throw new ConflictError(
      'clock_backwards',
      `Cannot move the clock back from ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()}: it only moves forward.`,
    );
  }
  return toMs;
}

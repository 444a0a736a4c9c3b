import type { z } from 'zod';
import { type AdvanceResultShape, CLOCK_MODES, type ClockStateShape } from '../model/clock.js';

export { CLOCK_MODES };
export type ClockMode = (typeof CLOCK_MODES)[number];

/** Why a batch instant passed without a batch (it is recorded, never dropped silently). */
export interface BatchSkip {
  reason: string;
}

/**
 * Called at each redelivery batch instant with that instant (emulator time); with `skip` when the
 * instant passed without running (e.g. the previous batch was still running), to be recorded.
 */
export type BatchListener = (at: Date, skip?: BatchSkip) => Promise<void> | void;

/** Where a manual clock should go: forward by a duration, to an instant, or to the next batch. */
export type AdvanceTarget = { byMs: number } | { to: Date } | { to: 'next-batch' };

/** What `advance` did: from, to, and the batch instants crossed, in order (each finished first). */
export type AdvanceResult = z.output<typeof AdvanceResultShape>;

/**
 * What a clock changed (src/change-stream.ts): it started (where it stands is then kept), or a manual
 * clock was advanced (from, to and the batch instants it crossed).
 */
export type ClockChange = { kind: 'clock_started' } | ({ kind: 'clock_advanced' } & AdvanceResult);

/** The clock as `GET /__admin/clock` describes it; `hourMs` in compressed mode only. */
export type ClockState = z.output<typeof ClockStateShape>;

/**
 * The emulator's clock: every timestamp, token expiry and the redelivery schedule read it.
 * `real` follows the wall clock, `compressed` runs `hourMs` real ms per emulator hour, `manual`
 * moves only through `advance()`.
 */
export interface Clock {
  readonly mode: ClockMode;
  /** Emulator time now. */
  now(): Date;
  /** The first batch instant strictly after `from` (default: now). */
  nextBatchAt(from?: Date): Date;
  /** Registers a batch listener; returns a function that removes it. */
  onBatch(listener: BatchListener): () => void;
  /** Moves a manual clock forward, running every batch it crosses. Other modes refuse. */
  advance(target: AdvanceTarget): Promise<AdvanceResult>;
  /** Starts the timers of real and compressed clocks (no-op for manual). */
  start(): void;
  /** Stops every timer. */
  stop(): void;
  describe(): ClockState;
}

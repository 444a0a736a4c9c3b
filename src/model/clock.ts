/** The clock's shapes (zod), for src/clock and the admin contract alike. */
import { z } from 'zod';
import { instant, int } from './fields.js';

export const CLOCK_MODES = ['real', 'compressed', 'manual'] as const;

/** The clock as `GET /__admin/clock` describes it; `hourMs` in compressed mode only. */
export const ClockStateShape = z.object({
  mode: z.enum(CLOCK_MODES),
  now: instant,
  nextBatchAt: instant,
  hourMs: int.optional().describe('real milliseconds per emulator hour (compressed mode only)'),
});

/** What a manual clock's advance did. */
export const AdvanceResultShape = z.object({
  from: instant,
  to: instant,
  batches: z
    .array(instant)
    .describe('batch instants crossed, in order; each batch had finished before the next began'),
});

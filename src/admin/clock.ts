import { Hono } from 'hono';
import { instantProblem } from '../clock/bounds.js';
import { type AdvanceTarget, parseDurationMs } from '../clock/index.js';
import type { Emulator } from '../emulator.js';
import { InputError } from '../errors.js';
import { mount } from './mount.js';

/** `GET /__admin/clock`, `POST /__admin/clock/advance` with `{by}`, `{to: ISO}` or `{to: "next-batch"}`. */
export function clockRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    getClock: () => emulator.clock.describe(),
    advanceClock: (_c, { body }) => emulator.clock.advance(toTarget(body)),
  });
}

function toTarget(input: { by: string | number } | { to: string }): AdvanceTarget {
  if ('by' in input) return { byMs: parseDurationMs(input.by, 'by') };
  if (input.to === 'next-batch') return { to: 'next-batch' };
  const problem = instantProblem(input.to, false);
  if (problem) {
    throw new InputError('invalid_advance', `to: "${input.to}" is not "next-batch" and ${problem}.`, {
      path: 'to',
      accepted: ['<ISO 8601 instant>', 'next-batch'],
    });
  }
  return { to: new Date(Date.parse(input.to)) };
}

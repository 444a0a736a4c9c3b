import { Hono } from 'hono';
import { instantProblem } from '../clock/bounds.js';
import { type AdvanceTarget, parseDurationMs } from '../clock/index.js';
import type { Emulator } from '../emulator.js';
import { InputError } from '../errors.js';
import { ADMIN_ROUTES } from './contract/routes.js';
import { mount } from './mount.js';
import { readJsonBody } from './read-json.js';

/** `GET /__admin/clock`, `POST /__admin/clock/advance` with `{by}`, `{to: ISO}` or `{to: "next-batch"}`. */
export function clockRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    getClock: () => emulator.clock.describe(),
    advanceClock: async (c) => {
      const parsed = ADMIN_ROUTES.advanceClock.body.safeParse(await readJsonBody(c));
      if (!parsed.success) {
        throw new InputError(
          'invalid_advance',
          'Give exactly one of {"by": "PT1H"}, {"to": "2026-04-27T11:00:00Z"} or {"to": "next-batch"}.',
          { accepted: ['by', 'to'] },
        );
      }
      return emulator.clock.advance(toTarget(parsed.data));
    },
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

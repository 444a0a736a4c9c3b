import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** `POST /__admin/reset`: forgets reservations, notifications, tokens, journal and faults; keeps users and credentials. */
export function resetRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    reset: () => {
      emulator.reset();
      return { status: 'reset' };
    },
  });
}

import { Hono } from 'hono';
import { effectiveConfig } from '../config/index.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** `GET /__admin/config`: the effective settings (no secrets), as the start log line lists them. */
export function configRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    config: () =>
      effectiveConfig(emulator.settings, emulator.seed, emulator.delivery.trustStore.list().length),
  });
}

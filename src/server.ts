import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from './app.js';
import type { SettingsInput } from './config/index.js';
import {
  createEmulator,
  type Emulator,
  type EmulatorDeps,
  type EmulatorPreload,
  loadEmulatorServices,
  needsDeliveryAtCreation,
} from './emulator.js';

/** A listening emulator: its base URL, the instance behind it and a way to stop both. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:8080` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly emulator: Emulator;
  close(): Promise<void>;
}

/** Builds an emulator, waits until it is ready, listens, and starts its clock. */
export async function startServer(
  input: SettingsInput = {},
  deps: EmulatorDeps = {},
  preload: EmulatorPreload = {},
): Promise<RunningEmulator> {
  // Preloaded credentials and a CA file are checked by the delivery engine as the emulator is built.
  if (needsDeliveryAtCreation(input, preload)) await loadEmulatorServices();
  const emulator = createEmulator(input, deps, preload);
  await emulator.ready;
  const app = createApp(emulator);
  const server = createAdaptorServer({ fetch: app.fetch, hostname: emulator.settings.host });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(emulator.settings.port, emulator.settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  emulator.start();
  const { port } = server.address() as AddressInfo;
  const host =
    emulator.settings.host === '0.0.0.0' || emulator.settings.host === '::'
      ? '127.0.0.1'
      : emulator.settings.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    emulator,
    close() {
      closing ??= (async () => {
        await emulator.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

import { expect } from 'vitest';
import { AdminClient } from '../../src/client/index.js';
import type * as T from '../../src/client/types.js';
import type { SettingsInput } from '../../src/config/index.js';
import type { EmulatorDeps, EmulatorPreload } from '../../src/emulator.js';
import { type RunningEmulator, startServer } from '../../src/server.js';

import { CLOCK_START } from './clock.js';
import { WAIT_DEADLINE_MS } from './deadline.js';
import { afterEachTest } from './file-hooks.js';
import { receiver } from './receiver.js';

export { CLOCK_START };

const running = new Set<RunningEmulator>();
afterEachTest(async () => {
  const closing = [...running].map((r) => r.close());
  running.clear();
  await Promise.all(closing);
});

/** What an admin call answered. */
export interface AdminAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

// The shapes the admin API answers are the client's (read from the route table), so a change of
// shape breaks these tests at compile time instead of drifting.
export type NotificationView = T.Notification;
export type EventResultView = T.EventResult;

/** A listening emulator (manual clock, silent) with small admin-API helpers. */
export interface DeliveryHarness {
  url: string;
  server: RunningEmulator;
  /** The typed admin client on this emulator. */
  client: AdminClient;
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<AdminAnswer<T>>;
  /** POST /credentials, expecting 201. */
  credential(input: Record<string, unknown>): Promise<{ id: string }>;
  /** POST /events, expecting 202. */
  event(input: Record<string, unknown>): Promise<EventResultView>;
  /** GET /notifications?wait=settled, expecting settled within `timeoutMs`. */
  settle(timeoutMs?: number): Promise<void>;
  notification(id: string): Promise<NotificationView>;
  /** POST /clock/advance, expecting 200. */
  advance(body: Record<string, unknown>): Promise<T.AdvanceResult>;
}

/** Starts an emulator on port 0 (manual clock at CLOCK_START) that the test file closes after each test. */
export async function deliveryEmulator(
  settings: SettingsInput = {},
  preload: EmulatorPreload = {},
  deps: EmulatorDeps = {},
): Promise<DeliveryHarness> {
  const server = await startServer(
    { port: 0, clock: 'manual', clockStart: CLOCK_START, logLevel: 'silent', seed: 11, ...settings },
    deps,
    preload,
  );
  running.add(server);
  const client = new AdminClient(server.url);
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<AdminAnswer<T>> => {
    const res = await fetch(`${server.url}/__admin${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  };
  return {
    url: server.url,
    server,
    client,
    admin,
    // Inputs stay loose here (tests build them freely); the client checks the answers' status.
    credential: (input) => client.addCredential(input as T.CredentialInput),
    event: (input) => client.emitEvent(input as T.EventInput),
    settle: async (timeoutMs = WAIT_DEADLINE_MS) => {
      expect((await client.waitSettled({}, timeoutMs)).settled).toBe(true);
    },
    notification: (id) => client.getNotification(id),
    advance: (body) => client.advanceClock(body as T.AdvanceInput),
  };
}

/** Event overrides that set the routing fields of the generated body. */
export function routingOverrides(pccBook: string, pccIssue: string, idWeb: number): Record<string, unknown> {
  return { Reservation: { PCCBook: pccBook, PCCIssue: pccIssue }, Product: { IdWeb: idWeb } };
}

/**
 * An emulator (http allowed, seed 42) with credentials `a` and `b` each posting to its own receiver,
 * and one Issue delivered to both: the start of the resend tests, in the API and in the dashboard.
 */
export async function issuedToTwoReceivers() {
  const a = await receiver();
  const b = await receiver();
  const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
  await emu.credential({ id: 'a', apiKey: 'k-a', url: a.url });
  await emu.credential({ id: 'b', apiKey: 'k-b', url: b.url });
  const issued = await emu.event({ type: 'Issue' });
  await emu.settle();
  return { emu, a, b, issued };
}

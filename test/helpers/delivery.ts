import { afterEach, expect } from 'vitest';
import type { SettingsInput } from '../../src/config/index.js';
import type { NotificationDetail } from '../../src/delivery/index.js';
import type { EmulatorDeps, EmulatorPreload } from '../../src/emulator.js';
import { type RunningEmulator, startServer } from '../../src/server.js';

import { CLOCK_START } from './clock.js';

export { CLOCK_START };

const running = new Set<RunningEmulator>();
afterEach(async () => {
  const closing = [...running].map((r) => r.close());
  running.clear();
  await Promise.all(closing);
});

/** What an admin call answered. */
export interface AdminAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

// The shapes the admin API answers, as the server declares them (JSON of the same objects), so a
// change of shape breaks these tests at compile time instead of drifting.
export type NotificationView = NotificationDetail;
export interface EventResultView {
  event: string;
  at: string;
  reservations: Array<{ bookingId: number; bookingNumber: string; status: string }>;
  notifications: Array<{ id: string; credentialId: string; bookingId: number; state: string }>;
  routedTo: number;
  message: string;
  warnings: string[];
}

/** A listening emulator (manual clock, silent) with small admin-API helpers. */
export interface DeliveryHarness {
  url: string;
  server: RunningEmulator;
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<AdminAnswer<T>>;
  /** POST /credentials, expecting 201. */
  credential(input: Record<string, unknown>): Promise<{ id: string }>;
  /** POST /events, expecting 202. */
  event(input: Record<string, unknown>): Promise<EventResultView>;
  /** GET /notifications?wait=settled, expecting settled within `timeoutMs`. */
  settle(timeoutMs?: number): Promise<void>;
  notification(id: string): Promise<NotificationView>;
  /** POST /clock/advance, expecting 200. */
  advance(body: Record<string, unknown>): Promise<{ batches: string[] }>;
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
  const expectStatus = <T>(answer: AdminAnswer<T>, status: number): T => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    return answer.body;
  };
  return {
    url: server.url,
    server,
    admin,
    credential: async (input) =>
      expectStatus(await admin<{ id: string }>('POST', '/credentials', input), 201),
    event: async (input) => expectStatus(await admin<EventResultView>('POST', '/events', input), 202),
    settle: async (timeoutMs = 10_000) => {
      const answer = await admin<{ settled: boolean }>(
        'GET',
        `/notifications?wait=settled&timeoutMs=${timeoutMs}`,
      );
      expect(expectStatus(answer, 200).settled).toBe(true);
    },
    notification: async (id) =>
      expectStatus(await admin<NotificationView>('GET', `/notifications/${id}`), 200),
    advance: async (body) =>
      expectStatus(await admin<{ batches: string[] }>('POST', '/clock/advance', body), 200),
  };
}

/** Event overrides that set the routing fields of the generated body. */
export function routingOverrides(pccBook: string, pccIssue: string, idWeb: number): Record<string, unknown> {
  return { Reservation: { PCCBook: pccBook, PCCIssue: pccIssue }, Product: { IdWeb: idWeb } };
}

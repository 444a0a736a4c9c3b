import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../src/admin/contract/routes.js';
import type { SettingsInput } from '../src/config/index.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { behave, receiver } from './helpers/receiver.js';
import { openStream } from './helpers/stream.js';
import { testCa } from './helpers/tls.js';

// The guard of issue 26 §1 / decision 0110: every admin route that writes state, called once, must
// (1) survive a restart on the same data dir (every list GET answers the same before and after) and
// (2) be heard on the live stream. The routes come from the route table: a new write route fails
// here until it has a request below (or a reason in SKIPPED_WRITES).

type Operation = keyof typeof ADMIN_ROUTES;

/** Write routes this test does not call, and why. */
const SKIPPED_WRITES: Partial<Record<Operation, string>> = {
  runScenario:
    'runs the steps of a scenario loaded with serve --scenario; each step is one of the write routes called here',
  verify: 'runs the conformance kit against a receiver with an emulator of its own; it changes nothing here',
};

/** List routes whose answer is not the emulator's state, and why. */
const SKIPPED_READS: Partial<Record<Operation, string>> = {
  health: 'readiness and uptime, not state',
  openApi: 'the API document',
  config: 'the settings (the port changes from one start to the next), not state',
  exportNotifications: 'the notifications of listNotifications in another format',
  stream: 'an endless stream, read separately below',
  ui: 'the dashboard page',
};

interface Context {
  receiverUrl: string;
  pem: string;
  bookingId?: number;
  notificationId?: string;
  token?: string;
  fingerprint?: string;
}

interface WriteCall {
  params?: Record<string, string | number>;
  body?: unknown;
  /** A raw body with its content type instead of JSON. */
  raw?: { text: string; type: string };
  /** The live-stream event this write must produce. */
  frame: string;
}

/** One call per write route, in an order that builds what the later ones need. */
const WRITES: Array<[Operation, (ctx: Context, emu: RunningEmulator) => Promise<WriteCall> | WriteCall]> = [
  [
    'addUser',
    () => ({ body: { username: 'ana', password: 'pw', idWeb: 7, webDescription: 'Ana' }, frame: 'admin' }),
  ],
  [
    'updateUser',
    async (ctx, emu) => {
      ctx.token = await getToken(emu, 'ana', 'pw2').catch(() => undefined); // before the change: refused
      return {
        params: { username: 'ana' },
        body: { password: 'pw2', idWeb: 8, webDescription: 'Ana B', versions: ['1.6', '1.7'] },
        frame: 'admin',
      };
    },
  ],
  [
    'addCredential',
    async (ctx, emu) => {
      ctx.token = await getToken(emu, 'ana', 'pw2'); // a token and a journal entry to keep
      return { body: { id: 'c1', apiKey: 'guard-key-000001', url: ctx.receiverUrl }, frame: 'admin' };
    },
  ],
  [
    'updateCredential',
    (ctx) => ({
      params: { id: 'c1' },
      body: { apiKey: 'guard-key-000002', url: `${ctx.receiverUrl}/v2` },
      frame: 'admin',
    }),
  ],
  ['trust', (ctx) => ({ raw: { text: ctx.pem, type: 'application/x-pem-file' }, frame: 'admin' })],
  ['addFault', () => ({ body: { kind: 'status', status: 503, count: 3 }, frame: 'admin' })],
  ['addOutage', () => ({ body: { credentialId: 'c1', attempts: 1 }, frame: 'admin' })],
  ['emitEvent', () => ({ body: { type: 'Issue' }, frame: 'event' })],
  [
    'redeliver',
    // keepPending: the notification the next steps retry and resend stays pending (decision 0200).
    (ctx) => ({
      params: { bookingId: ctx.bookingId! },
      body: { status: 'Issued', keepPending: true },
      frame: 'event',
    }),
  ],
  ['retryNotification', (ctx) => ({ params: { id: ctx.notificationId! }, frame: 'attempt' })],
  [
    'retryTriageGroup',
    async (_ctx, emu) => {
      // The 503 fault and the outage left failing notifications: retry the largest group.
      const triage = (await call(emu, 'GET', '/triage')).body as { groups: Array<{ key: string }> };
      return { body: { key: triage.groups[0]!.key }, frame: 'attempt' };
    },
  ],
  [
    'resendNotification',
    (ctx) => ({ params: { id: ctx.notificationId! }, body: {}, frame: 'notification_created' }),
  ],
  ['resendFailed', () => ({ body: { credentialId: 'c1', since: '2026-04-27T00:00:00Z' }, frame: 'attempt' })],
  ['runRedelivery', () => ({ frame: 'batch' })],
  ['advanceClock', () => ({ body: { by: 'PT1H' }, frame: 'clock' })],
  ['revokeToken', (ctx) => ({ params: { token: ctx.token! }, frame: 'admin' })],
  ['deleteFault', () => ({ params: { id: 'f-1' }, frame: 'admin' })],
  [
    'clearFaults',
    async (_ctx, emu) => {
      await call(emu, 'POST', '/faults', { body: { kind: 'drop', count: 2 } });
      return { frame: 'admin' };
    },
  ],
  ['deleteOutage', () => ({ params: { id: 'o-1' }, frame: 'admin' })],
  [
    'clearOutages',
    async (_ctx, emu) => {
      await call(emu, 'POST', '/outages', { body: { from: '2030-01-01T00:00:00Z', for: 'PT1H' } });
      return { frame: 'admin' };
    },
  ],
  ['untrust', (ctx) => ({ params: { fingerprint: ctx.fingerprint! }, frame: 'admin' })],
  ['deleteUser', () => ({ params: { username: 'ana' }, frame: 'admin' })],
  ['deleteCredential', () => ({ params: { id: 'c1' }, frame: 'admin' })],
  ['reset', () => ({ frame: 'admin' })],
];

const dirs: string[] = [];
const running: RunningEmulator[] = [];
afterAll(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serve(settings: SettingsInput): Promise<RunningEmulator> {
  const r = await startServer({ port: 0, logLevel: 'silent', allowHttp: true, ...settings });
  running.push(r);
  return r;
}

async function call(
  emu: RunningEmulator,
  method: string,
  path: string,
  input: Pick<WriteCall, 'body' | 'raw'> = {},
): Promise<{ status: number; body: unknown }> {
  const { body, raw } = input;
  const res = await fetch(`${emu.url}/__admin${path}`, {
    method,
    headers: raw
      ? { 'content-type': raw.type }
      : body === undefined
        ? {}
        : { 'content-type': 'application/json' },
    body: raw ? raw.text : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function getToken(emu: RunningEmulator, username: string, password: string): Promise<string> {
  const res = await fetch(`${emu.url}/api/1.6/FlightService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`GetAccessToken answered ${res.status}`);
  return JSON.parse(await res.text()) as string;
}

/** Every list GET of the route table (no path parameter), answered now. */
async function state(emu: RunningEmulator): Promise<Record<string, unknown>> {
  await call(emu, 'GET', '/notifications?wait=settled');
  const out: Record<string, unknown> = {};
  for (const [op, r] of Object.entries(ADMIN_ROUTES)) {
    if (r.method !== 'get' || r.path.includes(':') || op in SKIPPED_READS) continue;
    out[op] =
      op === 'deliveryStats' ? withoutTime(await call(emu, 'GET', r.path)) : await call(emu, 'GET', r.path);
  }
  return out;
}

/**
 * Delivery stats as the data dir must keep them: the timelines' buckets of wall time run on to now,
 * so a restart a second later adds empty ones (and counts them in the window); those are left out.
 */
function withoutTime(answer: { status: number; body: unknown }) {
  const body = answer.body as {
    window?: { count?: number };
    credentials?: Array<{ timeline?: Array<{ attempts: number }> }>;
  };
  if (body.window) delete body.window.count;
  for (const c of body.credentials ?? []) {
    while (c.timeline?.length && c.timeline.at(-1)!.attempts === 0) c.timeline.pop();
  }
  return answer;
}

/** The live stream, once it said hello: `heard(name)` whether an event so named came within 10 s. */
async function listen(emu: RunningEmulator) {
  const stream = await openStream(`${emu.url}/__admin/stream`);
  await stream.next((e) => e.event === 'hello', 10_000);
  return {
    heard: (name: string) =>
      stream
        .next((e) => e.event === name, 10_000)
        .then(
          () => true,
          () => false,
        ),
    seen: () => stream.events.map((e) => e.event),
    close: () => stream.close(),
  };
}

describe('every admin write route is kept by the data dir and heard on the live stream', () => {
  it('lists a request for every write route of the route table (or a reason it is not called)', () => {
    const writes = Object.entries(ADMIN_ROUTES)
      .filter(([, r]) => r.method !== 'get')
      .map(([op]) => op);
    const covered = new Set<string>([...WRITES.map(([op]) => op), ...Object.keys(SKIPPED_WRITES)]);
    expect(writes.filter((op) => !covered.has(op))).toEqual([]);
    expect(WRITES.map(([op]) => op).filter((op) => !writes.includes(op))).toEqual([]);
  });

  it('answers every list GET the same after a restart on the same data dir, after each write', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    const d = mkdtempSync(join(tmpdir(), 'reportbo-guard-'));
    dirs.push(d);
    const settings: SettingsInput = {
      dataDir: join(d, 'data'),
      clock: 'manual',
      clockStart: '2026-04-27T10:00:00Z',
    };
    const ctx: Context = { receiverUrl: rec.url, pem: testCa().certPem };
    let emu = await serve(settings);
    const problems: string[] = [];
    for (const [op, make] of WRITES) {
      const route = ADMIN_ROUTES[op];
      const input = await make(ctx, emu);
      const path = route.path.replace(/:(\w+)/g, (_, name: string) =>
        encodeURIComponent(String(input.params?.[name])),
      );
      const stream = await listen(emu);
      const answer = await call(emu, route.method.toUpperCase(), path, input);
      expect(answer.status, `${op}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      remember(ctx, op, answer.body);
      if (!(await stream.heard(input.frame)))
        problems.push(
          `${op}: no "${input.frame}" frame on the live stream (heard: ${stream.seen().join(', ')})`,
        );
      stream.close();
      const before = await state(emu);
      await emu.close();
      running.splice(running.indexOf(emu), 1);
      emu = await serve(settings);
      const after = await state(emu);
      for (const read of Object.keys(before))
        if (JSON.stringify(after[read]) !== JSON.stringify(before[read]))
          problems.push(
            `${op}: GET ${ADMIN_ROUTES[read as Operation].path} differs after a restart:\n  before ${JSON.stringify(before[read])}\n  after  ${JSON.stringify(after[read])}`,
          );
    }
    expect(problems).toEqual([]);
  });
});

/** Takes the ids later writes need from an answer. */
function remember(ctx: Context, op: Operation, body: unknown): void {
  const b = body as Record<string, unknown>;
  if (op === 'emitEvent') {
    ctx.bookingId = (b.reservations as Array<{ bookingId: number }>)[0]!.bookingId;
    ctx.notificationId = (b.notifications as Array<{ id: string }>)[0]!.id;
  }
  if (op === 'trust') ctx.fingerprint = (b.added as Array<{ fingerprint256: string }>)[0]!.fingerprint256;
}

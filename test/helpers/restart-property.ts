import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { ADMIN_ROUTES } from '../../src/admin/contract/routes.js';
import { readState, type StatePath, stateDifferences, statePaths } from './admin-state.js';
import { serveOnDataDir, stop } from './data-dir-emulators.js';
import { atFileEnd } from './file-hooks.js';
import { http } from './http.js';
import { WRITES_KEPT_BY_RESET } from './reset-oracle.js';
import { testCa } from './tls.js';

// The restart-equivalence property (issue 38 §5), shared by test/restart-equivalence.test.ts and
// the mutation drill (test/drill/mutation-drill.drill.ts): random sequences of admin writes (every
// write route of the route table), reservation events, GetAccessToken calls and clock moves; after
// each sequence every state GET (detail GETs included, reached through the ids of the list answers)
// answers the same after a restart on the same data dir; after each reset, as a fresh start does
// (the reset oracle, test/helpers/reset-oracle.ts).

type Operation = keyof typeof ADMIN_ROUTES;

/** The write routes of the route table (every method but GET). */
type WriteOperation = {
  [K in Operation]: (typeof ADMIN_ROUTES)[K]['method'] extends 'get' ? never : K;
}[Operation];

/** Write routes no sequence calls, and why. */
export const NOT_DRAWN = {
  runScenario: 'runs the steps of a scenario loaded with serve --scenario: each step is a write drawn here',
  verify: 'runs the conformance kit with an emulator of its own; it changes nothing here',
} satisfies Partial<Record<WriteOperation, string>>;

/** One step of a sequence: what to call, `pick` choosing among what exists (a notification, a user). */
export interface Step {
  op: WriteOperation | 'getAccessToken';
  pick: number;
  variant: number;
}

interface Call {
  path: string;
  body?: unknown;
  raw?: { text: string; type: string };
}

const USERS = ['ana', 'bo'];
const CREDENTIALS = ['c1', 'c2'];
/** Nothing listens on port 9: every attempt fails at once (connection refused). */
/**
 * Where each credential sends: nothing listens on port 9 for c1 (every attempt fails at once,
 * connection refused); c2's receiver answers 200, so its notifications settle and the retention
 * drops them.
 */
const REFUSED = 'http://127.0.0.1:9/hook';
let accepting: Server | undefined;
const urlOf = (credential: string | undefined) =>
  credential === 'c2' && accepting
    ? `http://127.0.0.1:${(accepting.address() as AddressInfo).port}/hook`
    : REFUSED;

/** Starts c2's receiver (once per test file: it is closed at the file's end). */
async function acceptingReceiver(): Promise<void> {
  if (accepting) return;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  accepting = server;
  atFileEnd(() => {
    accepting = undefined;
    server.closeAllConnections();
    server.close();
  });
}
const pem = testCa().certPem;

type Lists = Record<string, Array<Record<string, unknown>>>;
const nth = <T>(items: T[] | undefined, pick: number): T | undefined =>
  items && items.length > 0 ? items[pick % items.length] : undefined;

/** Each drawn write route's request, from what the emulator lists now (undefined: nothing to call it on). */
export const REQUESTS: Record<
  Exclude<WriteOperation, keyof typeof NOT_DRAWN> | 'getAccessToken',
  ((s: Step, lists: Lists) => Call | undefined) | undefined
> = {
  reset: () => ({ path: '/reset' }),
  addUser: (s) => ({
    path: '/users',
    body: {
      username: USERS[s.pick % 2],
      password: 'pw',
      idWeb: 7 + s.variant,
      webDescription: `U${s.variant}`,
    },
  }),
  updateUser: (s) => ({
    path: `/users/${USERS[s.pick % 2]}`,
    body: {
      password: 'pw',
      idWeb: 9,
      webDescription: `V${s.variant}`,
      versions: s.variant % 2 ? ['1.6'] : ['1.6', '1.7'],
    },
  }),
  deleteUser: (s) => ({ path: `/users/${USERS[s.pick % 2]}` }),
  addCredential: (s) => ({
    path: '/credentials',
    body: {
      id: CREDENTIALS[s.pick % 2],
      apiKey: `key-${String(s.variant).padStart(12, '0')}`,
      url: urlOf(CREDENTIALS[s.pick % 2]),
    },
  }),
  updateCredential: (s) => ({
    path: `/credentials/${CREDENTIALS[s.pick % 2]}`,
    body: {
      apiKey: `new-${String(s.variant).padStart(12, '0')}`,
      url: `${urlOf(CREDENTIALS[s.pick % 2])}/${s.variant}`,
    },
  }),
  deleteCredential: (s) => ({ path: `/credentials/${CREDENTIALS[s.pick % 2]}` }),
  trust: () => ({ path: '/trust', raw: { text: pem, type: 'application/x-pem-file' } }),
  untrust: (s, l) => {
    const t = nth(l.trust, s.pick);
    return t && { path: `/trust/${encodeURIComponent(String(t.fingerprint256))}` };
  },
  addFault: (s) => ({ path: '/faults', body: { kind: 'status', status: 503, count: 1 + (s.variant % 3) } }),
  deleteFault: (s, l) => {
    const f = nth(l.faults, s.pick);
    return f && { path: `/faults/${f.id}` };
  },
  clearFaults: () => ({ path: '/faults' }),
  addOutage: (s) => ({
    path: '/outages',
    body: {
      ...(s.variant % 2 ? { attempts: 1 + (s.pick % 2) } : { from: '2026-04-27T10:30:00Z', for: 'PT1H' }),
      // One of a credential, dropped with it when it is deleted.
      ...(s.variant % 3 === 0 ? { credentialId: CREDENTIALS[s.pick % 2] } : {}),
    },
  }),
  deleteOutage: (s, l) => {
    const o = nth(l.outages, s.pick);
    return o && { path: `/outages/${o.id}` };
  },
  clearOutages: () => ({ path: '/outages' }),
  emitEvent: (s, l) => {
    const type = ['Issue', 'Issue', 'Void', 'Exchange'][s.variant % 4]!;
    const r = nth(l.reservations, s.pick);
    if (type === 'Issue') return { path: '/events', body: { type } };
    return r && { path: '/events', body: { type, bookingId: r.bookingId } };
  },
  redeliver: (s, l) => {
    const r = nth(l.reservations, s.pick);
    return r && { path: `/reservations/${r.bookingId}/redeliver`, body: {} };
  },
  retryNotification: (s, l) => {
    const n = nth(l.notifications, s.pick);
    return n && { path: `/notifications/${n.id}/retry` };
  },
  resendNotification: (s, l) => {
    const n = nth(l.notifications, s.pick);
    return n && { path: `/notifications/${n.id}/resend`, body: {} };
  },
  resendFailed: (s) => ({
    path: '/notifications/resend-failed',
    body: { credentialId: CREDENTIALS[s.pick % 2], since: '2026-04-27T00:00:00Z' },
  }),
  retryTriageGroup: (s, l) => {
    const g = nth(l.triage, s.pick);
    return g && { path: '/triage/retry', body: { key: g.key } };
  },
  runRedelivery: () => ({ path: '/redelivery/run' }),
  advanceClock: (s) => ({ path: '/clock/advance', body: { by: ['PT5M', 'PT1H', 'PT3H'][s.variant % 3] } }),
  revokeToken: (s, l) => {
    const t = nth(l.tokens, s.pick);
    return t && { path: `/tokens/${t.token}` };
  },
  getAccessToken: () => undefined, // not an admin route: called in `run`
};

const METHODS: Record<string, string> = Object.fromEntries(
  Object.entries(ADMIN_ROUTES).map(([op, r]) => [op, r.method.toUpperCase()]),
);

/** Small retention, so sequences reach it: the notifications retention drops are kept too. */
const serve = (dataDir: string, clockStart?: string) =>
  serveOnDataDir(dataDir, { seed: 7, notificationRetention: 3, ...(clockStart ? { clockStart } : {}) });

/**
 * The reset oracle (test/helpers/reset-oracle.ts) right after a reset on `url`: a fresh start on
 * `freshDir` with the same settings, the writes of what reset keeps among `made` (the steps before
 * the reset) and its clock where this one's stands answers every state GET as this one does, the
 * paths `listed` right before the reset (the items it forgot) included. Throws naming the
 * steps done and each GET that differs.
 */
async function forgetsAsAFreshStart(
  freshDir: string,
  url: string,
  listed: StatePath[],
  made: Step[],
  done: string[],
): Promise<void> {
  const after = await readState(url, listed);
  const clock = [...after.values()].find((r) => r.operation === 'getClock')?.body as { now: string };
  const fresh = await serve(freshDir, clock.now);
  try {
    for (const step of made) if (WRITES_KEPT_BY_RESET.has(step.op)) await run(fresh.url, step);
    const answers = await readState(fresh.url, [...listed, ...after.values()]);
    const differences = stateDifferences(answers, after, ['a fresh start ', 'after the reset']);
    if (differences.length > 0)
      throw new Error(`after:\n  ${done.join('\n  ')}\n${RESET_ORACLE}:\n${differences.join('\n')}`);
  } finally {
    await stop(fresh);
    rmSync(freshDir, { recursive: true, force: true });
  }
}

/** How a failure of the reset oracle starts its list of differences. */
export const RESET_ORACLE = 'the reset did not forget as a fresh start does (the reset oracle)';

/** The list a step picks from (ids of notifications, reservations, …), by the operation that picks. */
const PICKS_FROM: Partial<Record<Step['op'], string>> = {
  untrust: 'trust',
  deleteFault: 'faults',
  deleteOutage: 'outages',
  emitEvent: 'reservations',
  redeliver: 'reservations',
  retryNotification: 'notifications',
  resendNotification: 'notifications',
  revokeToken: 'tokens',
  retryTriageGroup: 'triage',
};

/** The list `op` picks from, read now (none for the operations that pick nothing). */
async function lists(url: string, op: Step['op']): Promise<Lists> {
  const name = PICKS_FROM[op];
  if (!name) return {};
  const body = JSON.parse((await http(`${url}/__admin/${name}`)).body.toString()) as Record<string, unknown>;
  const items = Object.values(body).find(Array.isArray) as Array<Record<string, unknown>> | undefined;
  return { [name]: items ?? [] };
}

/** Runs one step; answers what it called (for the failure message), or undefined when it was skipped. */
async function run(url: string, step: Step): Promise<string | undefined> {
  if (step.op === 'getAccessToken') {
    const user = USERS[step.pick % 2];
    const password = step.variant % 3 ? 'pw' : 'wrong';
    // 1.6 names its fields in lower case, 1.7 in PascalCase (the spec's request members).
    const v17 = step.variant % 2 === 1;
    await http(`${url}/api/1.${v17 ? 7 : 6}/FlightService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(v17 ? { Username: user, Password: password } : { username: user, password }),
    });
    return `GetAccessToken ${user}`;
  }
  const call = REQUESTS[step.op as keyof typeof REQUESTS]?.(step, await lists(url, step.op));
  if (!call) return undefined;
  const method = METHODS[step.op]!;
  const body = call.raw ? call.raw.text : call.body === undefined ? undefined : JSON.stringify(call.body);
  const res = await http(`${url}/__admin${call.path}`, {
    method,
    headers: call.raw
      ? { 'content-type': call.raw.type }
      : call.body === undefined
        ? {}
        : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  // A refusal (4xx: a user that exists already, a Void of a voided booking) is a step too: nothing changes.
  expect(res.status, `${step.op} ${method} ${call.path}`).toBeLessThan(500);
  return `${step.op} ${method} ${call.path} ${call.body === undefined ? '' : JSON.stringify(call.body)} → ${res.status}`;
}

const DRAWN = Object.keys(REQUESTS) as Step['op'][];
/**
 * What every sequence starts from, so the drawn steps find something to act on: two users, the two
 * credentials, a token, a fault rule, an outage of c1, an event and its two notifications.
 */
const PREAMBLE: Step[] = [
  { op: 'addUser', pick: 0, variant: 0 },
  { op: 'addUser', pick: 1, variant: 1 },
  { op: 'addCredential', pick: 0, variant: 0 },
  { op: 'addCredential', pick: 1, variant: 1 },
  { op: 'getAccessToken', pick: 0, variant: 1 },
  { op: 'addFault', pick: 0, variant: 2 },
  { op: 'addOutage', pick: 0, variant: 0 },
  { op: 'emitEvent', pick: 0, variant: 0 },
];
export const stepArb: fc.Arbitrary<Step> = fc.record({
  // Reset three times as often as each other step: it is the one write every store answers, and
  // what it forgets must be forgotten after a restart too.
  op: fc.constantFrom(...DRAWN, 'reset', 'reset'),
  pick: fc.nat(7),
  variant: fc.nat(11),
});

/** Sequences of 1 to 10 steps after the preamble. */
export const sequenceArb = fc.array(stepArb, { minLength: 1, maxLength: 10 });

/** Where a sequence is: its emulator started (`live`), stopped and about to start again (`restart`). */
export type Phase = 'live' | 'restart';

/**
 * Runs the preamble and `steps` on an emulator on a new data dir under `root`, restarts it there
 * and throws when a state GET answers differently, naming the steps done and each GET that differs.
 * `phase` hears where the sequence is (the mutation drill switches its mutants on it).
 */
export async function restartsTheSame(
  root: string,
  steps: Step[],
  phase: (p: Phase) => void = () => {},
): Promise<void> {
  await acceptingReceiver();
  const dataDir = join(root, `d${sequenceNumber++}`);
  let emu = await serve(dataDir);
  const done: string[] = [];
  phase('live');
  try {
    const made: Step[] = [];
    for (const step of [...PREAMBLE, ...steps]) {
      const listed = step.op === 'reset' ? await statePaths(emu.url) : undefined;
      const said = await run(emu.url, step);
      if (said) done.push(said);
      if (listed) await forgetsAsAFreshStart(`${dataDir}-fresh`, emu.url, listed, made, done);
      made.push(step);
    }
    const before = await readState(emu.url);
    await stop(emu);
    phase('restart');
    emu = await serve(dataDir);
    const after = await readState(emu.url);
    const differences = stateDifferences(before, after);
    if (differences.length > 0) throw new Error(`after:\n  ${done.join('\n  ')}\n${differences.join('\n')}`);
  } finally {
    await stop(emu);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
let sequenceNumber = 0;

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../src/scenarios/load/loader.js';
import type { ScenarioResult } from '../src/scenarios/run/results.js';
import { runScenario } from '../src/scenarios/run/runner.js';
import { type RunningEmulator, startServer } from '../src/server.js';

/** Runs scenario text in a fresh in-process emulator (or against `target`). */
function run(text: string, target?: string): Promise<ScenarioResult> {
  return runScenario('inline.yaml', parseScenario(text, 'inline.yaml'), target ? { target } : {});
}

/** Every failed expectation and step error, for readable assertion messages. */
function problems(r: ScenarioResult): string {
  return JSON.stringify(
    r.steps.flatMap((s) => [...s.expectations.filter((e) => !e.passed), ...(s.error ? [s.error] : [])]),
  );
}

describe('built-in receiver behaviours, seen through delivery outcomes', () => {
  it('records a hanging receiver as a timeout and a reset connection (plain HTTP) as reset', async () => {
    const r = await run(`name: misbehaving receivers
settings: { responseTimeoutMs: 2000, allowHttp: true }
receivers:
  - { name: sleepy, behaviour: hang }
  - { name: rude, protocol: http, behaviour: reset }
  - { name: slow-ok, behaviour: { slow: 20ms } }
credentials:
  - { id: h, apiKey: k-h, url: "receiver:sleepy" }
  - { id: r, apiKey: k-r, url: "receiver:rude" }
  - { id: s, apiKey: k-s, url: "receiver:slow-ok" }
steps:
  - issue: { as: t }
  - expect:
      notifications: { credential: h, state: pending, outcome: timeout, statusCodes: [null] }
  - expect:
      notifications: { credential: r, state: pending, outcome: reset }
  - expect:
      notifications: { credential: s, state: delivered, statusCode: 200 }
`);
    expect(r.status, problems(r)).toBe('passed');
  });

  it('treats 201 and a redirect as failures and keeps the receiver script per request', async () => {
    const r = await run(`name: not exactly 200
receivers:
  - { name: picky, behaviour: [201, { redirect: "https://127.0.0.1:9/elsewhere" }, 200] }
credentials:
  - { id: p, apiKey: k-p, url: "receiver:picky" }
steps:
  - issue: { as: t }
  - advance: { by: 1m }
  - runBatch:
  - advance: { by: 1m }
  - runBatch:
  - expect:
      notifications: { booking: t, state: delivered, statusCodes: [201, 302, 200] }
      receiver: { name: picky, count: 3 }
`);
    expect(r.status, problems(r)).toBe('passed');
  });
});

describe('login steps', () => {
  it('reaches every variant, including 1.7 XML with the request in the query string', async () => {
    const r = await run(`name: variants
users: [{ username: u, password: "00123", idWeb: 5, webDescription: W, versions: ["1.6", "1.7"] }]
steps:
  - login: { version: 1.6, variant: xml, username: u, password: "00123", query: true, expect: { ok: true } }
  - login: { version: 1.6, variant: soap12, username: u, password: "00123", expect: { ok: true } }
  - login: { version: 1.7, variant: xml, username: u, password: "00123", query: true, as: q17, expect: { ok: true } }
  - login: { version: 1.7, variant: soap, username: u, password: nope, as: bad, expect: { ok: false, transactionCode: "1200" } }
  - expect:
      login: { name: q17, status: 200, headers: { X-API-User-IDWeb: "5" } }
  - expect:
      requests: { variant: soap12, count: 1 }
`);
    expect(r.status, problems(r)).toBe('passed');
  });
});

describe('waitFor an outside actor', () => {
  let target: RunningEmulator;
  beforeAll(async () => {
    target = await startServer({ port: 0, clock: 'manual', logLevel: 'silent' });
  });
  afterAll(() => target.close());

  it('waits until the SDK under test has made three 1.7 token calls', async () => {
    const scenario = `name: wait for the SDK
users: [{ username: sdk, password: pw, idWeb: 9, webDescription: SDK, versions: ["1.7"] }]
steps:
  - waitFor: { requests: { version: "1.7", count: 3 }, timeout: 10s }
  - expect:
      requests: { version: "1.7", username: sdk, outcome: ok, count: 3 }
`;
    const running = run(scenario, target.url);
    // The "SDK": three PascalCase 1.7 JSON calls, made once the scenario has set the target up (its
    // user exists) and waits. A fixed 300 ms was too short on a loaded machine: a call made before the
    // run reset the target was not counted, and the wait timed out at 2 of 3.
    for (let i = 0; i < 200; i++) {
      const { users } = (await (await fetch(`${target.url}/__admin/users`)).json()) as {
        users: Array<{ username: string }>;
      };
      if (users.some((u) => u.username === 'sdk')) break;
      await sleep(50);
    }
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${target.url}/api/1.7/AuthService.json/GetAccessToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Username: 'sdk', Password: 'pw' }),
      });
      expect(res.status).toBe(200);
    }
    const r = await running;
    expect(r.status, problems(r)).toBe('passed');
    expect(r.steps[0]!.detail).toMatch(/^3 GetAccessToken calls/);
  });

  it('fails the step, naming what it waited for, when the actor does not come', async () => {
    const r = await run(
      'name: nobody comes\nsteps:\n  - waitFor: { requests: { version: "1.6", count: 1 }, timeout: 300ms }\n  - wait: { for: 10ms }\n',
      target.url,
    );
    expect(r.status).toBe('error');
    expect(r.steps[0]!.error).toBe('waitFor timed out after 300 ms: 0 of 1 GetAccessToken calls (1.6)');
    expect(r.steps[1]!.status).toBe('skipped');
  });
});

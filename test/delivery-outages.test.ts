import { describe, expect, it } from 'vitest';
import { parseScenario } from '../src/scenarios/load/loader.js';
import { runScenario } from '../src/scenarios/run/runner.js';
import { type DeliveryHarness, deliveryEmulator } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

interface OutageView {
  id: string;
  credentialId: string | null;
  attempts: number | null;
  remaining: number | null;
  from: string | null;
  until: string | null;
  failedAttempts: number;
  status: string;
}

async function outage(emu: DeliveryHarness, body: Record<string, unknown>): Promise<OutageView> {
  const answer = await emu.admin<OutageView>('POST', '/outages', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

describe('simulated outages (POST /__admin/outages)', () => {
  it('fails the next N attempts of one credential without contacting its receiver; the batch then delivers', async () => {
    const mine = await receiver();
    const other = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'mine', apiKey: 'k1', url: mine.url });
    await emu.credential({ id: 'other', apiKey: 'k2', url: other.url });
    const o = await outage(emu, { credentialId: 'mine', attempts: 1 });
    expect(o).toMatchObject({ id: 'o-1', credentialId: 'mine', attempts: 1, remaining: 1, status: 'active' });

    const event = await emu.event({ type: 'Issue' });
    await emu.settle();
    const [toMine, toOther] = event.notifications.map((n) => n.id);
    const first = await emu.notification(toMine!);
    expect(first.state).toBe('pending');
    expect(first.attempts).toHaveLength(1);
    expect(first.attempts[0]).toMatchObject({ outcome: 'simulated_outage', outageId: 'o-1', number: 1 });
    expect(first.attempts[0]!.message).toMatch(
      /simulated outage o-1 .*credential mine.*not sent.*not contacted/,
    );
    expect(mine.requests).toHaveLength(0);
    // The other credential's receiver is untouched by the outage.
    expect((await emu.notification(toOther!)).state).toBe('delivered');
    expect(other.requests).toHaveLength(1);

    await emu.advance({ to: 'next-batch' });
    const after = await emu.notification(toMine!);
    expect(after.state).toBe('delivered');
    expect(after.attempts.map((a) => [a.outcome, a.statusCode ?? null])).toEqual([
      ['simulated_outage', null],
      ['http_status', 200],
    ]);
    expect(mine.requests).toHaveLength(1);
    const listed = await emu.admin<{ outages: OutageView[] }>('GET', '/outages');
    expect(listed.body.outages).toEqual([
      expect.objectContaining({ id: 'o-1', remaining: 0, failedAttempts: 1, status: 'ended' }),
    ]);
  });

  it('fails every attempt that starts inside a window of emulator time, for every credential', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    // 10:00 → 12:00: the first attempt and the 10:55 and 11:55 batches fall inside; 12:55 does not.
    const o = await outage(emu, { for: 'PT2H', note: 'deploy' });
    expect(o).toMatchObject({
      credentialId: null,
      from: '2026-04-27T10:00:00.000Z',
      until: '2026-04-27T12:00:00.000Z',
    });
    const event = await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ by: 'PT3H' });
    const n = await emu.notification(event.notifications[0]!.id);
    expect(n.attempts.map((a) => [a.startedAt, a.outcome])).toEqual([
      ['2026-04-27T10:00:00.000Z', 'simulated_outage'],
      ['2026-04-27T10:55:00.000Z', 'simulated_outage'],
      ['2026-04-27T11:55:00.000Z', 'simulated_outage'],
      ['2026-04-27T12:55:00.000Z', 'http_status'],
    ]);
    expect(n.attempts[0]!.message).toContain('"deploy"');
    expect(n.state).toBe('delivered');
    expect(r.requests).toHaveLength(1);
    expect((await emu.admin<OutageView>('GET', '/outages/o-1')).body).toMatchObject({
      failedAttempts: 3,
      status: 'ended',
    });
  });

  it('exhausts a notification whose five attempts all fall in an open-ended outage, and DELETE ends one early', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'c', apiKey: 'k', url: r.url });
    await outage(emu, { credentialId: 'c' });
    const lost = await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ by: 'PT5H' });
    const n = await emu.notification(lost.notifications[0]!.id);
    expect(n.state).toBe('exhausted');
    expect(n.attempts.every((a) => a.outcome === 'simulated_outage')).toBe(true);
    expect(n.attempts).toHaveLength(5);
    expect(r.requests).toHaveLength(0);

    const saved = await emu.event({ type: 'Issue' });
    await emu.settle();
    expect((await emu.admin('DELETE', '/outages/o-1')).status).toBe(204);
    await emu.advance({ to: 'next-batch' });
    expect((await emu.notification(saved.notifications[0]!.id)).state).toBe('delivered');
    expect(r.requests).toHaveLength(1);
    expect((await emu.admin('DELETE', '/outages/o-1')).status).toBe(404);
  });

  it('refuses outages it could not honour, naming the field and what to do', async () => {
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'c1', apiKey: 'k', url: 'http://127.0.0.1:9/x' });
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ attempts: 2, for: 'PT1H' }, 'invalid_outage', /either attempts .* or a window/],
      [{ until: '2026-04-27T11:00:00Z', for: 'PT1H' }, 'invalid_outage', /either until or for/],
      [
        { from: '2026-04-27T12:00:00Z', until: '2026-04-27T11:00:00Z' },
        'invalid_outage',
        /must end after it begins/,
      ],
      [{ attempts: 0 }, 'invalid_outage', /attempts/],
      [{ for: 'soon' }, 'invalid_duration', /not a duration/],
      [{ credentialId: 'c2' }, 'unknown_credential', /no credential "c2" \(known: c1\)/],
      [{ whenever: true }, 'invalid_outage', /whenever/],
    ];
    for (const [body, code, message] of cases) {
      const answer = await emu.admin<{ error: { code: string; message: string } }>('POST', '/outages', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(answer.body)).toBe(code);
      expect(answer.body.error.message).toMatch(message);
    }
    expect((await emu.admin<{ outages: unknown[] }>('GET', '/outages')).body.outages).toEqual([]);
  });

  it('forgets outages on reset and drops a deleted credential’s outages', async () => {
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'a', apiKey: 'k', url: 'http://127.0.0.1:9/a' });
    await emu.credential({ id: 'b', apiKey: 'k', url: 'http://127.0.0.1:9/b' });
    await outage(emu, { credentialId: 'a', attempts: 3 });
    await outage(emu, { credentialId: 'b', attempts: 3 });
    expect((await emu.admin('DELETE', '/credentials/a')).status).toBe(204);
    const left = await emu.admin<{ outages: OutageView[] }>('GET', '/outages');
    expect(left.body.outages.map((o) => o.credentialId)).toEqual(['b']);
    await emu.admin('POST', '/reset', {});
    expect((await emu.admin<{ outages: unknown[] }>('GET', '/outages')).body.outages).toEqual([]);
  });
});

describe('the scenario step outage', () => {
  it('shows first attempts failing and the batch delivering to the user’s own receiver, which sees only the batch', async () => {
    const own = await receiver();
    const result = await runScenario(
      'outage.yaml',
      parseScenario(
        `name: an outage of my own receiver
settings: { allowHttp: true }
clock: { mode: manual, start: "2026-04-27T10:00:00Z" }
credentials:
  - { id: mine, apiKey: my-key, url: "${own.url}/reportbo" }
steps:
  - outage: { credential: mine, until: "2026-04-27T10:30:00Z", note: receiver redeploy }
  - issue: { as: t }
  - expect:
      notifications: { booking: t, state: pending, attempts: 1, outcome: simulated_outage }
  - advance: { to: next-batch }
  - expect:
      notifications: { booking: t, state: delivered, attempts: 2, statusCodes: [null, 200] }
`,
        'outage.yaml',
      ),
      {},
    );
    const failed = result.steps.flatMap((s) => [
      ...s.expectations.filter((e) => !e.passed),
      ...(s.error ? [s.error] : []),
    ]);
    expect(failed, JSON.stringify(failed)).toEqual([]);
    expect(result.steps[0]!.detail).toMatch(
      /^o-1: mine, 2026-04-27T10:00:00.000Z → 2026-04-27T10:30:00.000Z/,
    );
    // The receiver saw exactly one request: the batch's, with the credential's key.
    expect(own.requests).toHaveLength(1);
    expect(own.requests[0]!.headers.authorization).toBe('Bearer my-key');
  });

  it('refuses at load an outage naming an undeclared credential, or mixing attempts and a window', () => {
    const text = (step: string) => `name: x
credentials:
  - { id: mine, apiKey: k, url: "https://localhost:8443/r" }
steps:
  - outage: ${step}
`;
    expect(() => parseScenario(text('{ credential: theirs }'), 'bad.yaml')).toThrow(
      /no credential "theirs"; declared: mine/,
    );
    expect(() => parseScenario(text('{ attempts: 2, for: PT1H }'), 'bad.yaml')).toThrow(
      /either attempts or a window/,
    );
  });
});

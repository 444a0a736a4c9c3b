/**
 * Stopping with a delivery attempt in flight (decision 0043): the attempt may end within the
 * shutdown grace and is then recorded as it ended; one still running when the grace passed is
 * recorded as `interrupted` (not the receiver's failure, not counted toward the 5 attempts) and its
 * notification stays pending. Through the real CLI with SIGTERM, and in process for the exact state.
 */
import { describe, expect, it } from 'vitest';
import { countedAttempts } from '../src/delivery/notification.js';
import { startServer } from '../src/server.js';
import { adminOk } from './helpers/admin-call.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { serveCli } from './helpers/processes.js';
import { behave, receiver } from './helpers/receiver.js';

const adminPost = (url: string, path: string, body: unknown) => adminOk({ url }, 'POST', path, body);

/** The attempt lines of a JSON log. */
function attemptLines(log: string): Array<Record<string, unknown>> {
  return log
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.kind === 'attempt');
}

/** Serves with the real CLI, one credential to `receiverUrl`, sends an Issue and SIGTERMs mid-attempt. */
async function stopMidAttempt(receiverUrl: string, waitForRequest: () => Promise<unknown>, extra: string[]) {
  const { url, started: serve } = await serveCli(
    ['--clock', 'manual', '--allow-http', '--seed', '3', ...extra],
    {
      REPORTBO_LOG_FORMAT: 'json',
    },
  );
  await adminPost(url, '/credentials', { id: 'slow', apiKey: 'k', url: `${receiverUrl}/hook` });
  await adminPost(url, '/events', { type: 'Issue' });
  await waitForRequest(); // the attempt is now in flight
  const signalled = performance.now();
  serve.child.kill('SIGTERM');
  const code = await serve.exited();
  return { code, exitMs: Math.round(performance.now() - signalled), log: serve.output() };
}

describe('SIGTERM with a delivery attempt in flight', () => {
  it('lets an attempt that ends within the grace end, recorded as it ended (delivered)', async () => {
    const slow = await receiver({ defaultBehaviour: behave.slow(1500, 200) });
    const run = await stopMidAttempt(slow.url, () => slow.waitForRequests(1, WAIT_DEADLINE_MS), []);
    const [attempt] = attemptLines(run.log);
    console.log(
      `shutdown, receiver answering in 1500 ms, grace 5000 ms (default): exit ${run.exitMs} ms after SIGTERM, attempt ${attempt?.outcome} ${attempt?.statusCode} in ${attempt?.durationMs} ms`,
    );
    expect(run.code).toBe(0);
    expect(attempt).toMatchObject({
      outcome: 'http_status',
      statusCode: 200,
      state: 'delivered',
      attempt: 1,
    });
    expect(run.log).not.toContain('interrupted');
  });

  it('records an attempt still running when the grace passed as interrupted, the notification pending', async () => {
    const hang = await receiver({ defaultBehaviour: behave.hang() });
    const run = await stopMidAttempt(hang.url, () => hang.waitForRequests(1, WAIT_DEADLINE_MS), [
      '--shutdown-grace-ms',
      '800',
    ]);
    const [attempt] = attemptLines(run.log);
    console.log(
      `shutdown, receiver never answering, grace 800 ms: exit ${run.exitMs} ms after SIGTERM, attempt ${attempt?.outcome} after ${attempt?.durationMs} ms, notification ${attempt?.state}`,
    );
    expect(run.code).toBe(0);
    expect(attempt).toMatchObject({ outcome: 'interrupted', state: 'pending', attempt: 1, ok: false });
    expect(String(attempt?.msg)).toContain("not the receiver's failure");
    const warning = run.log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).includes('did not end within 800 ms'));
    expect(warning).toMatchObject({ running: 1, finished: 0, interrupted: 1, graceMs: 800 });
  });
});

describe('stopping an emulator in process', () => {
  it('keeps the interrupted notification pending with its attempt listed and not counted', async () => {
    const hang = await receiver({ defaultBehaviour: behave.hang() });
    const running = await startServer({
      port: 0,
      clock: 'manual',
      allowHttp: true,
      logLevel: 'silent',
      shutdownGraceMs: 200,
    });
    await adminPost(running.url, '/credentials', { id: 'c', apiKey: 'k', url: `${hang.url}/hook` });
    await adminPost(running.url, '/events', { type: 'Issue' });
    await hang.waitForRequests(1, WAIT_DEADLINE_MS);
    await running.close();
    const [n] = running.emulator.delivery.outbox.list();
    expect(n).toMatchObject({ state: 'pending', inFlight: false, deliveredAt: null, exhaustedAt: null });
    expect(n!.attempts).toEqual([
      expect.objectContaining({ number: 1, trigger: 'first', outcome: 'interrupted', statusCode: undefined }),
    ]);
    expect(countedAttempts(n!)).toBe(0);
    expect(running.emulator.delivery.outbox.runningAttempts).toBe(0);
  });

  it('counts four failures and one interruption as four: the notification is not exhausted', () => {
    const attempt = (outcome: string) => ({ outcome }) as never;
    expect(
      countedAttempts({
        attempts: [
          attempt('http_status'),
          attempt('interrupted'),
          attempt('timeout'),
          attempt('reset'),
          attempt('http_status'),
        ],
      }),
    ).toBe(4);
  });
});

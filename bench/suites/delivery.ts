/**
 * Delivery under load: 10,000 Issue events posted through the admin API to one credential whose
 * receiver fails 30% of requests at random, then minute-55 batches on the manual clock until nothing
 * is pending. Checks that every notification ends delivered or exhausted, none is lost, none has more
 * than 5 attempts and none is sent again after a 200; reports delivered notifications per second and
 * peak RSS. The receiver (src/receivers, keeping no bodies) runs on a worker thread of this process.
 */
import { Agent, request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { MAX_ATTEMPTS } from '../../dist/delivery/notification.js';
import { startServer } from '../../dist/server.js';
import { envNumber, fmt, table } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const FAILURE_RATE = 0.3;
const POSTERS = 16;
const TARGET_PER_S = 1_000;

/** Posts one Issue event over a keep-alive agent and answers the status. */
function postEvent(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('{"type":"Issue"}');
  });
}

const suite: BenchSuite = {
  name: 'delivery',
  title: 'Delivery: 10,000 events, 30% random receiver failures, batches until settled',
  async run(log) {
    const events = envNumber('BENCH_DELIVERY_EVENTS', 10_000, 1_000);
    // The bench runs under tsx; a worker does not inherit its loader, so it registers it first.
    const entry = new URL('./delivery-receiver.ts', import.meta.url).href;
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
      { eval: true, workerData: { failureRate: FAILURE_RATE, seed: 0x5eed } },
    );
    const ask = <T>(message: string): Promise<T> =>
      new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage(message);
      });
    const { url: receiverUrl } = await new Promise<{ url: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const agent = new Agent({ keepAlive: true, maxSockets: POSTERS });
    const server = await startServer({
      port: 0,
      clock: 'manual',
      clockStart: '2026-04-27T10:00:00Z',
      logLevel: 'silent',
      allowHttp: true,
      seed: 42,
    });
    const { delivery } = server.emulator;
    try {
      delivery.credentials.add({ id: 'bench', apiKey: 'bench-key', url: `${receiverUrl}/hook` });
      const started = performance.now();
      let posted = 0;
      let next = 0;
      const post = async () => {
        while (next < events) {
          next++;
          const status = await postEvent(`${server.url}/__admin/events`, agent);
          if (status !== 202) throw new Error(`POST /events answered ${status}`);
          posted++;
        }
      };
      await Promise.all(Array.from({ length: POSTERS }, post));
      const postedMs = performance.now() - started;
      if (!(await delivery.outbox.waitSettled({}, 600_000))) throw new Error('first attempts did not settle');
      const firstPassMs = performance.now() - started;
      const firstDelivered = delivery.outbox.list({ state: 'delivered' }).length;
      log(
        `${fmt(posted)} events posted in ${fmt(postedMs)} ms; first attempts settled at ${fmt(firstPassMs)} ms`,
      );

      const batchRows: string[][] = [];
      let batchAttempts = 0;
      let batchMs = 0;
      while (delivery.outbox.list({ state: 'pending' }).length > 0) {
        const t0 = performance.now();
        const advanced = await server.emulator.clock.advance({ to: 'next-batch' });
        const result = delivery.outbox.batches().at(-1)!;
        batchAttempts += result.attempted;
        batchMs += performance.now() - t0;
        batchRows.push([
          advanced.batches[0] ?? '',
          fmt(result.attempted),
          fmt(result.delivered),
          fmt(result.exhausted),
          fmt(performance.now() - t0),
        ]);
        log(`batch ${advanced.batches[0]}: ${result.attempted} attempted, ${result.delivered} delivered`);
        if (batchRows.length > MAX_ATTEMPTS) throw new Error('more batches than attempts allow');
      }
      const totalMs = performance.now() - started;
      const { requests, answered200 } = await ask<{ requests: number; answered200: number }>('stats');

      const all = delivery.outbox.list();
      const delivered = all.filter((n) => n.state === 'delivered').length;
      const exhausted = all.filter((n) => n.state === 'exhausted').length;
      const attempts = all.reduce((sum, n) => sum + n.attempts.length, 0);
      const maxAttempts = Math.max(...all.map((n) => n.attempts.length));
      const afterSuccess = all.filter((n) => {
        const ok = n.attempts.findIndex((a) => a.statusCode === 200);
        return ok >= 0 && ok < n.attempts.length - 1;
      }).length;
      const checks: Array<[string, boolean]> = [
        [`${fmt(events)} notifications, none lost`, all.length === events],
        ['every notification delivered or exhausted', delivered + exhausted === events],
        [`no notification with more than ${MAX_ATTEMPTS} attempts`, maxAttempts <= MAX_ATTEMPTS],
        ['none sent again after a 200 (per notification)', afterSuccess === 0],
        ['receiver saw exactly the recorded attempts', requests === attempts],
        ['receiver answered 200 exactly once per delivered notification', answered200 === delivered],
      ];
      const failedChecks = checks.filter(([, ok]) => !ok).map(([name]) => name);
      if (failedChecks.length)
        throw new Error(`delivery bench invariants failed: ${failedChecks.join('; ')}`);

      const peakRss = process.resourceUsage().maxRSS / 1024;
      const firstPassRate = (firstDelivered / firstPassMs) * 1000;
      const overallRate = (delivered / totalMs) * 1000;
      return [
        `${fmt(events)} events (one credential, deliveryConcurrency ${server.emulator.settings.deliveryConcurrency}), ` +
          `receiver failing ${FAILURE_RATE * 100}% at random (seeded), ${POSTERS} concurrent admin-API posters, manual clock.`,
        '',
        table(
          ['Measure', 'Value'],
          [
            ['Events posted (202 answers)', `${fmt(postedMs)} ms`],
            ['First attempts settled', `${fmt(firstPassMs)} ms`],
            ['Delivered on first attempt', fmt(firstDelivered)],
            [
              '**Delivered/s, first pass** (post + first attempts)',
              `**${fmt(firstPassRate)}** (target ≥ ${fmt(TARGET_PER_S)})`,
            ],
            ['Delivered in all / exhausted', `${fmt(delivered)} / ${fmt(exhausted)}`],
            ['Attempts in all', fmt(attempts)],
            ['Whole run until settled', `${fmt(totalMs)} ms`],
            ['Delivered/s, whole run', fmt(overallRate)],
            [
              'Redelivery attempts/s inside batches (sender + outbox alone)',
              fmt((batchAttempts / batchMs) * 1000),
            ],
            ['Peak RSS (emulator process, receiver on a worker thread)', `${fmt(peakRss, 1)} MiB`],
          ],
        ),
        '',
        table(['Batch', 'Attempted', 'Delivered', 'Exhausted', 'ms'], batchRows),
        '',
        `Invariants checked: ${checks.map(([name]) => name).join('; ')}.`,
      ].join('\n');
    } finally {
      agent.destroy();
      await server.close();
      await worker.terminate();
    }
  },
};

export default suite;

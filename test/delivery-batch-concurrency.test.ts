import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';

/**
 * A loopback receiver that answers 503 until `hold()`, then holds every request until `release()`
 * answers them 200 (and every later one at once). It counts requests per notification file name and
 * the most requests it had open at once.
 */
async function holdingReceiver() {
  let mode: 'refuse' | 'hold' | 'accept' = 'refuse';
  const held: http.ServerResponse[] = [];
  const sent = new Map<string, number>();
  let open = 0;
  let maxOpen = 0;
  const server = http.createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('finish', () => open--);
    const name = /filename=([^;]+)/.exec(req.headers['content-disposition'] ?? '')?.[1] ?? '';
    sent.set(name, (sent.get(name) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      if (mode === 'refuse') res.writeHead(503, { 'content-length': '0' }).end();
      else if (mode === 'hold') held.push(res);
      else res.writeHead(200, { 'content-length': '0' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    sent,
    held: () => held.length,
    resetMaxOpen: () => {
      maxOpen = open;
    },
    maxOpen: () => maxOpen,
    hold: () => {
      mode = 'hold';
    },
    release: () => {
      mode = 'accept';
      for (const res of held.splice(0)) res.writeHead(200, { 'content-length': '0' }).end();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('a redelivery batch over more notifications than deliveryConcurrency', () => {
  it('shows every due notification in flight, sends at most deliveryConcurrency at once, each once', async () => {
    const r = await holdingReceiver();
    stop = r.close;
    const emu = await deliveryEmulator({ allowHttp: true, deliveryConcurrency: 3 });
    await emu.credential({ apiKey: 'k', url: r.url });
    for (let i = 0; i < 10; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    expect([...r.sent.values()]).toEqual(Array(10).fill(1));

    r.hold();
    r.resetMaxOpen();
    const batch = emu.advance({ to: 'next-batch' });
    await until(() => r.held() === 3);
    const during = await emu.admin<{ notifications: Array<{ inFlight: boolean; state: string }> }>(
      'GET',
      '/notifications',
    );
    // Three are at the receiver, seven wait for a slot: all ten are queued or running.
    expect(during.body.notifications.map((n) => [n.state, n.inFlight])).toEqual(
      Array(10).fill(['pending', true]),
    );
    expect(r.held()).toBe(3);

    r.release();
    await batch;
    await emu.settle();
    const { body } = await emu.admin<{ batches: Array<Record<string, unknown>> }>(
      'GET',
      '/redelivery/batches',
    );
    expect(body.batches.at(-1)).toMatchObject({ attempted: 10, delivered: 10, failed: 0 });
    expect(r.maxOpen()).toBeLessThanOrEqual(3);
    // The first attempt and one redelivery each; none sent again after its 200.
    expect([...r.sent.values()]).toEqual(Array(10).fill(2));
  });
});

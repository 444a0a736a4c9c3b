/**
 * Dead or slow (issue 30 §3): a receiver is dead only when it refuses connections for a sustained
 * period. One that restarts (its port refuses connections for a moment, then accepts again) is not
 * "the receiver stopped": the cases after it run and the refusal is named as a restart; one that stays
 * down is still named dead (verify-bugs.test.ts, "a receiver that dies mid-run"). A single-threaded
 * receiver slow to accept is a concurrency finding (verify-round3.test.ts, §3).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { verifyReceiver } from '../src/index.js';

const KEY = 'dead-or-slow-key';

/**
 * Answers 200 to notifications with the key; after `restartAfter` of them it "restarts": the listening
 * socket closes and open connections reset, and it listens again on the same port `downMs` later.
 */
async function restartingReceiver(restartAfter: number, downMs: number) {
  let posts = 0;
  let restarts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      const ok = req.headers.authorization === `Bearer ${KEY}`;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'text/plain' }).end(ok ? 'OK' : 'no');
      if (posts === restartAfter) {
        restarts++;
        setImmediate(() => {
          server.close();
          for (const s of sockets) s.destroy();
          setTimeout(() => server.listen(port, '127.0.0.1'), downMs);
        });
      }
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/reportbo`,
    restarts: () => restarts,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('dead or slow', () => {
  it('a receiver that restarts (refuses for 800 ms, then accepts again) is not dead: the rest runs', async () => {
    const r = await restartingReceiver(2, 800);
    try {
      const report = await verifyReceiver({
        receiver: r.url,
        apiKey: KEY,
        allowHttp: true,
        only: [
          'acknowledges-issue',
          'acknowledges-every-status',
          'acknowledges-redelivery',
          'accepts-minimal-body',
          'accepts-old-update-date',
        ],
      });
      expect(r.restarts()).toBe(1);
      expect(report.causes.map((c) => c.cause)).not.toContain('receiver-stopped');
      // The refusal happened and is named for what it was.
      const named = report.cases.filter((c) =>
        /accepted connections again \d+ ms later: a restart/.test(c.reason),
      );
      expect(named.map((c) => c.id)).toHaveLength(1);
      expect(JSON.stringify(named[0]!.evidence)).toMatch(/ECONNREFUSED/);
      // Nothing was skipped as "not run: the receiver stopped", and the cases after the restart pass.
      expect(report.skipped).toBe(0);
      const after = report.cases.slice(report.cases.indexOf(named[0]!) + 1);
      expect(after.length).toBeGreaterThan(0);
      for (const c of after) expect([c.id, c.status]).toEqual([c.id, 'passed']);
    } finally {
      await r.close();
    }
  });
});

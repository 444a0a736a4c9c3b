import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type DeliveryHarness, deliveryEmulator } from './helpers/delivery.js';
import { OK_200, type RawScript, rawReceiver } from './helpers/raw-receiver.js';
import { loopbackCertificate, testCaFile } from './helpers/tls.js';

/** A TLS server certificate for 127.0.0.1 signed by the test CA. */
function tlsOptions() {
  const { certPem, keyPem } = loopbackCertificate();
  return { cert: certPem, key: keyPem };
}

/** Sends `count` Issue events one after another, each waited for, and answers their notifications. */
async function deliverInTurn(emu: DeliveryHarness, url: string, count: number, gapMs = 0) {
  await emu.credential({ apiKey: 'k', url });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const result = await emu.event({ type: 'Issue' });
    ids.push(result.notifications[0]!.id);
    await emu.settle();
    if (gapMs > 0) await sleep(gapMs);
  }
  const list = await emu.admin<{ notifications: Array<{ id: string; state: string; attemptCount: number }> }>(
    'GET',
    '/notifications',
  );
  return list.body.notifications.filter((n) => ids.includes(n.id));
}

describe('reused keep-alive connections that the receiver closes', () => {
  it.each([
    ['closes (FIN)', 'close'],
    ['resets (RST)', 'reset'],
  ] as const)(
    'delivers 200 of 200 at the first attempt when the receiver %s each connection as the next request arrives',
    async (_label, how) => {
      // The receiver answers 200 without a Keep-Alive header, and its idle timeout fires exactly as
      // the sender reuses the connection: every request after the first on a connection is lost.
      // Such a request never reached the receiver, so it is not the receiver's failure.
      const r = await rawReceiver({
        arrived: ({ indexOnConnection }) => (indexOnConnection > 1 ? how : undefined),
        answer: (socket) => socket.write(OK_200),
      });
      const emu = await deliveryEmulator({ allowHttp: true });
      const notifications = await deliverInTurn(emu, r.url, 200);
      expect(notifications).toHaveLength(200);
      expect(notifications.filter((n) => n.state !== 'delivered' || n.attemptCount !== 1)).toEqual([]);
      // Each notification reached the receiver exactly once.
      expect(r.requests).toHaveLength(200);
      expect(r.requests.every((q) => q.indexOnConnection === 1)).toBe(true);
    },
    60_000,
  );

  it('delivers every notification at the first attempt to a receiver that closes idle connections after 20 ms', async () => {
    // The race as it happens with real servers (e.g. Python http.server with a socket timeout):
    // the gaps between deliveries straddle the idle timeout. Whatever the timing, none may fail.
    const sockets = new Set<import('node:net').Socket>();
    const r = await rawReceiver({
      answer: (socket) => {
        socket.write(OK_200);
        if (!sockets.has(socket)) {
          sockets.add(socket);
          socket.setTimeout(20, () => socket.destroy());
        }
      },
    });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      ids.push((await emu.event({ type: 'Issue' })).notifications[0]!.id);
      await emu.settle();
      await sleep(15 + (i % 10));
    }
    for (const id of ids) {
      const n = await emu.notification(id);
      expect(
        n.attempts.map((a) => a.outcome),
        id,
      ).toEqual(['http_status']);
      expect(n.state).toBe('delivered');
    }
    expect(r.requests).toHaveLength(200);
  });

  it('delivers 50 of 50 at the first attempt over HTTPS when the receiver closes each reused connection', async () => {
    const r = await rawReceiver(
      {
        arrived: ({ indexOnConnection }) => (indexOnConnection > 1 ? 'close' : undefined),
        answer: (socket) => socket.write(OK_200),
      },
      tlsOptions(),
    );
    const emu = await deliveryEmulator({ caFile: testCaFile() });
    const notifications = await deliverInTurn(emu, r.url, 50);
    expect(notifications.filter((n) => n.state !== 'delivered' || n.attemptCount !== 1)).toEqual([]);
    expect(r.requests).toHaveLength(50);
  });

  it('records a failure when the new connection of the retry fails too, naming both tries', async () => {
    const r = await rawReceiver({
      arrived: ({ indexOnConnection, connection }) =>
        indexOnConnection > 1 || connection > 1 ? 'reset' : undefined,
      answer: (socket) => socket.write(OK_200),
    });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const first = await emu.event({ type: 'Issue' });
    await emu.settle();
    expect((await emu.notification(first.notifications[0]!.id)).state).toBe('delivered');
    // The receiver now closes the kept connection as the next request arrives, and resets every
    // new connection: the retry reaches it and fails, which is the receiver's failure.
    const second = await emu.event({ type: 'Issue' });
    await emu.settle();
    const n = await emu.notification(second.notifications[0]!.id);
    expect(n.attempts).toHaveLength(1);
    expect(n.attempts[0]!.outcome).toBe('reset');
    expect(n.attempts[0]!.message).toContain('on a new connection: the first try, on a reused connection');
  });

  it('does not send a request again when a fresh connection is reset before the answer', async () => {
    const r = await rawReceiver({
      answer: (socket) => socket.resetAndDestroy(),
    });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.attempts.map((a) => a.outcome)).toEqual(['reset']);
    expect(r.requests).toHaveLength(1);
  });
});

/** A script that answers each request with `chunks`, written `gapMs` apart. */
function writes(chunks: string[], gapMs = 5): RawScript {
  return {
    answer: (socket) => {
      let i = 0;
      const next = () => {
        if (socket.destroyed || i >= chunks.length) return;
        socket.write(chunks[i++]!);
        setTimeout(next, gapMs);
      };
      next();
    },
  };
}

describe('interim responses', () => {
  it.each([
    ['in its own write', ['HTTP/1.1 100 Continue\r\n\r\n', OK_200]],
    ['in the same write as the 200', [`HTTP/1.1 100 Continue\r\n\r\n${OK_200}`]],
    ['split across writes', ['HTTP/1.1 10', '0 Continue\r', '\n\r\n', OK_200]],
    [
      'twice, then 102 and 103',
      [
        'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n',
        'HTTP/1.1 102 Processing\r\n\r\n',
        'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n',
        OK_200,
      ],
    ],
  ])('counts 100 Continue %s, then 200, as delivered', async (_label, chunks) => {
    const r = await rawReceiver(writes(chunks));
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('delivered');
    expect(n.attempts[0]).toMatchObject({ outcome: 'http_status', statusCode: 200, responseBody: 'ok' });
    expect(n.attempts[0]!.message).toContain('interim (1xx) response');
  });

  it('counts 100 Continue then 200 as delivered over HTTPS, connection after connection', async () => {
    const r = await rawReceiver(writes(['HTTP/1.1 100 Continue\r\n\r\n', OK_200]), tlsOptions());
    const emu = await deliveryEmulator({ caFile: testCaFile() });
    await emu.credential({ apiKey: 'k', url: r.url });
    for (let i = 0; i < 3; i++) {
      const result = await emu.event({ type: 'Issue' });
      await emu.settle();
      const n = await emu.notification(result.notifications[0]!.id);
      expect(n.attempts[0]!.message).toContain('200');
      expect(n.state).toBe('delivered');
    }
    expect(r.requests).toHaveLength(3);
  });

  it('still fails a 100 Continue followed by a 500', async () => {
    const r = await rawReceiver(
      writes(['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n']),
    );
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('pending');
    expect(n.attempts[0]).toMatchObject({ outcome: 'http_status', statusCode: 500 });
  });
});

describe('invalid responses', () => {
  async function firstAttempt(script: RawScript, settings: Record<string, unknown> = {}) {
    const r = await rawReceiver(script);
    const emu = await deliveryEmulator({ allowHttp: true, ...settings });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle(20_000);
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('pending');
    return n.attempts[0]!;
  }

  it('labels a 200 whose body is cut short by a close as invalid_response', async () => {
    const attempt = await firstAttempt({
      answer: (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\npartial'),
    });
    expect(attempt).toMatchObject({ outcome: 'invalid_response', statusCode: 200 });
    expect(attempt.message).toContain('closed the connection after 7 body bytes');
  });

  it('labels a chunked 200 cut short by a close (kept alive) as invalid_response', async () => {
    const attempt = await firstAttempt({
      answer: (socket) => socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7\r\npartial\r\n'),
    });
    expect(attempt).toMatchObject({ outcome: 'invalid_response', statusCode: 200 });
  });

  it('labels a response with two different Content-Length headers as invalid_response', async () => {
    const attempt = await firstAttempt({
      answer: (socket) =>
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\nokabc'),
    });
    expect(attempt.outcome).toBe('invalid_response');
    expect(attempt.message).toContain('Content-Length');
  });

  it('stops reading an endless body past the read limit and closes, long before the deadline', async () => {
    let written = 0;
    let closed = false;
    const attempt = await firstAttempt(
      {
        answer: (socket) => {
          socket.on('close', () => {
            closed = true;
          });
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n');
          const chunk = Buffer.alloc(16 * 1024, 'x');
          const pump = () => {
            while (!socket.destroyed && socket.write(chunk)) written += chunk.length;
            if (!socket.destroyed) socket.once('drain', pump);
          };
          pump();
        },
      },
      // A deadline far beyond the test's own wait: only stopping at the limit settles in time.
      { responseTimeoutMs: 600_000 },
    );
    expect(attempt).toMatchObject({ outcome: 'invalid_response', statusCode: 200 });
    expect(attempt.message).toContain('stopped reading and closed the connection');
    expect(attempt.responseBody).toHaveLength(4096);
    await expect.poll(() => closed).toBe(true);
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});

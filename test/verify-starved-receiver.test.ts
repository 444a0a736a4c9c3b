/**
 * A correct receiver on a starved machine: its TLS handshakes complete one at a time, slowly, and it
 * answers nothing while a handshake is pending (a loaded Node process works through the burst's 50
 * handshakes before any request). Its first answer comes more than HELD_MS after the burst opened,
 * well within the response timeout. It is working, not stuck: the kit must not cut it (decision 0239
 * amended by 0258: a completed handshake is a sign of life, as an answer is).
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyReceiver } from '../src/index.js';
import { HELD_MS } from '../src/verify/context.js';
import { loopbackCertificate, testCaFile } from './helpers/tls.js';

const KEY = 'starved-receiver-key';
/** One handshake every this many ms: the burst's 50 take 15 s, over HELD_MS (10 s). */
const HANDSHAKE_GAP_MS = 300;

const closers: Array<() => void> = [];
afterAll(() => {
  for (const close of closers) close();
});

/** Starts the starved receiver on 127.0.0.1:0; answers its base URL and how many handshakes it did. */
async function starvedReceiver(): Promise<{ base: string; handshakes: () => number }> {
  const cert = loopbackCertificate();
  const waiting: Socket[] = [];
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  let handshakes = 0;
  const https = createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      if (waiting.length > 0) held.push(answer);
      else answer();
    });
  });
  https.on('secureConnection', () => handshakes++);
  https.on('tlsClientError', () => {});
  // The TCP side accepts at once; the TLS side gets one connection per HANDSHAKE_GAP_MS.
  // Paused until handed over: the TLS side reads the ClientHello itself.
  const tcp = createTcpServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    waiting.push(socket);
  });
  const timer = setInterval(() => {
    const next = waiting.shift();
    if (next) https.emit('connection', next);
    if (waiting.length === 0) for (const answer of held.splice(0)) answer();
  }, HANDSHAKE_GAP_MS);
  tcp.listen(0, '127.0.0.1');
  await once(tcp, 'listening');
  closers.push(() => {
    clearInterval(timer);
    tcp.close();
    for (const s of sockets) s.destroy();
  });
  const { port } = tcp.address() as AddressInfo;
  return { base: `https://localhost:${port}`, handshakes: () => handshakes };
}

describe('verify against a correct receiver whose handshakes are starved', () => {
  it('waits while handshakes complete, and passes the burst it answers after HELD_MS', async () => {
    const r = await starvedReceiver();
    const report = await verifyReceiver({
      receiver: `${r.base}/reportbo`,
      apiKey: KEY,
      caFile: testCaFile(),
      only: ['survives-batch-burst'],
      seed: 7,
    });
    const burst = report.cases.find((c) => c.id === 'survives-batch-burst')!;
    expect(burst, burst.reason).toMatchObject({ status: 'passed' });
    // Every delivery of the burst got its handshake; the answers came only after the last one.
    expect(r.handshakes()).toBeGreaterThanOrEqual(50);
  });
});

describe('verify whose own process stalls', () => {
  it('does not blame the receiver for a window in which the kit itself could not listen', async () => {
    // The first delivery of the burst stops this process (kit and receiver alike) for longer than
    // HELD_MS; every delivery is answered half a second after the stall. The held check due meanwhile
    // fires right after the stall, before any answer: it must start its window again, as the kit
    // could not have heard anything while it stood still.
    let stalled = false;
    let answerAt = 0;
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (!stalled) {
          stalled = true;
          // A process descheduled, or a long pause: nothing of this process runs. The thread sleeps
          // rather than spins, so the stall costs the machine no CPU (decision 0267).
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HELD_MS + 1_000);
          answerAt = Date.now() + 500;
        }
        setTimeout(
          () => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK'),
          Math.max(0, answerAt - Date.now()),
        );
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(() => server.close());
    const { port } = server.address() as AddressInfo;
    const report = await verifyReceiver({
      receiver: `http://127.0.0.1:${port}/reportbo`,
      apiKey: KEY,
      allowHttp: true,
      only: ['survives-batch-burst'],
      seed: 7,
    });
    expect(stalled).toBe(true);
    const burst = report.cases.find((c) => c.id === 'survives-batch-burst')!;
    expect(burst, burst.reason).toMatchObject({ status: 'passed' });
  });
});

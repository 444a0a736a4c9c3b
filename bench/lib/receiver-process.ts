/**
 * A loopback notification receiver in its own process, so it never competes with the sender for
 * the event loop: reads each body, answers 200 with no body, and records the arrival (wall time
 * with sub-millisecond precision, and the Content-Disposition filename). Control routes:
 * `GET /__bench/wait?count=N&timeoutMs=T` (answers once N arrived), `GET /__bench/arrivals`,
 * `POST /__bench/reset`, `POST /__bench/status?code=503` (answer that status; only 200s are arrivals). Usage: node --import tsx bench/lib/receiver-process.ts [port]
 */
import http from 'node:http';

const now = () => performance.timeOrigin + performance.now();
let times: number[] = [];
let names: string[] = [];
let bytes = 0;
/** Status answered to notifications; only 200-answered ones count as arrivals. */
let status = 200;
let refused = 0;
const waiters = new Set<{ count: number; resolve: () => void }>();

function arrived(filename: string): void {
  times.push(now());
  names.push(filename);
  for (const w of waiters) {
    if (times.length >= w.count) {
      waiters.delete(w);
      w.resolve();
    }
  }
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (url.pathname === '/__bench/wait') {
    const count = Number(url.searchParams.get('count') ?? 0);
    const timeoutMs = Number(url.searchParams.get('timeoutMs') ?? 60_000);
    const answer = (reached: boolean) =>
      json(res, 200, {
        reached,
        count: times.length,
        first: times[0] ?? null,
        last: times[times.length - 1] ?? null,
      });
    if (times.length >= count) return answer(true);
    const waiter = { count, resolve: () => answer(true) };
    waiters.add(waiter);
    setTimeout(() => {
      if (waiters.delete(waiter)) answer(false);
    }, timeoutMs).unref();
    return;
  }
  if (url.pathname === '/__bench/arrivals') return json(res, 200, { times, names, bytes, refused });
  if (url.pathname === '/__bench/status') {
    status = Number(url.searchParams.get('code') ?? 200);
    return json(res, 200, { status });
  }
  if (url.pathname === '/__bench/reset') {
    times = [];
    names = [];
    bytes = 0;
    refused = 0;
    return json(res, 200, { reset: true });
  }
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  req.on('end', () => {
    if (status === 200) {
      const disposition = req.headers['content-disposition'] ?? '';
      arrived(/filename=([^;]+)/.exec(disposition)?.[1] ?? '');
    } else refused++;
    res.writeHead(status, { 'content-length': '0' });
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`receiver listening on http://127.0.0.1:${port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

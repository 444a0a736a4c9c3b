// The soak's load generator, in its own process (bench/soak.ts starts it): GetAccessToken calls and
// manual redeliveries (each a new notification) at fixed rates, each call timed. Every 10 s it prints
// one JSON line: {t, tokens:{n, p50, p99, max, errors}, events:{…}} with times in ms.
// Usage: node bench/lib/soak-load.mjs <emulator url> <seconds> <tokens/s> <events/s> <bookingIds,…>
import http from 'node:http';

const [url, seconds, tokenRate, eventRate, ids] = process.argv.slice(2);
const bookingIds = ids.split(',').map(Number);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const target = new URL(url);
const endAt = Date.now() + Number(seconds) * 1000;

function post(path, body) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        const ok = res.statusCode < 300;
        res.on('end', () =>
          resolve({ ms: performance.now() - started, ok, why: ok ? null : `HTTP ${res.statusCode}` }),
        );
      },
    );
    req.on('error', (err) =>
      resolve({ ms: performance.now() - started, ok: false, why: err.code ?? err.message }),
    );
    req.end(body);
  });
}

const windows = { tokens: [], events: [] };
const errors = { tokens: 0, events: 0 };
/** What the failed calls of the window got (`HTTP 503`, `ECONNRESET`, …), counted. */
let why = {};
const failed = (r) => {
  why[r.why] = (why[r.why] ?? 0) + 1;
};
const tokenBody = JSON.stringify({ Username: 'bench', Password: 'bench-pass' });
let next = 0;

function every(ratePerSec, fn) {
  const intervalMs = 1000 / ratePerSec;
  let due = performance.now();
  const tick = () => {
    if (Date.now() >= endAt) return;
    const now = performance.now();
    while (due <= now) {
      void fn();
      due += intervalMs;
    }
    setTimeout(tick, Math.max(0, due - performance.now()));
  };
  tick();
}

every(Number(tokenRate), async () => {
  const r = await post('/api/1.7/AuthService.json/GetAccessToken', tokenBody);
  windows.tokens.push(r.ms);
  if (!r.ok) {
    errors.tokens++;
    failed(r);
  }
});
every(Number(eventRate), async () => {
  const id = bookingIds[next++ % bookingIds.length];
  const r = await post(`/__admin/reservations/${id}/redeliver`, JSON.stringify({ status: 'Issued' }));
  windows.events.push(r.ms);
  if (!r.ok) {
    errors.events++;
    failed(r);
  }
});

function summary(times, errs) {
  const s = times.slice().sort((a, b) => a - b);
  const q = (p) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null);
  return { n: s.length, p50: q(0.5), p99: q(0.99), max: s.at(-1) ?? null, errors: errs };
}

const started = Date.now();
const report = setInterval(() => {
  const line = {
    t: Math.round((Date.now() - started) / 1000),
    wallMs: Date.now(),
    tokens: summary(windows.tokens, errors.tokens),
    events: summary(windows.events, errors.events),
    ...(Object.keys(why).length ? { why } : {}),
  };
  why = {};
  windows.tokens = [];
  windows.events = [];
  errors.tokens = 0;
  errors.events = 0;
  process.stdout.write(`${JSON.stringify(line)}\n`);
  if (Date.now() >= endAt + 2000) {
    clearInterval(report);
    agent.destroy();
  }
}, 10_000);

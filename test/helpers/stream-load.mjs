// Load generator of test/stream-load.test.ts, in its own process so its sockets and its CPU are not
// the test's: a loopback receiver for the deliveries, `clients` raw GET /__admin/stream sockets of
// which `slow` never read, then `events` Issue events through the admin API. Prints one JSON line.
// Usage: node stream-load.mjs <emulator-url> <clients> <slow> <events>
import { createServer } from 'node:http';
import { connect } from 'node:net';

const [url, clientsArg, slowArg, eventsArg] = process.argv.slice(2);
const base = new URL(url);
const clients = Number(clientsArg);
const slow = Number(slowArg);
const events = Number(eventsArg);
const deadline = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200).end('ok'));
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

async function admin(path, body) {
  const res = await fetch(new URL(`/__admin${path}`, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}
await admin('/credentials', {
  id: 'load',
  apiKey: 'load-key',
  url: `http://127.0.0.1:${receiver.address().port}/hook`,
});

/** One raw SSE client: counts `event: event` frames (across chunk borders) and notes its end. */
function streamClient(reading) {
  const socket = connect(Number(base.port), base.hostname);
  const c = { socket, reading, hello: false, eventFrames: 0, bytes: 0, ended: false, tail: '' };
  socket.setEncoding('utf8');
  socket.on('connect', () =>
    socket.write(`GET /__admin/stream HTTP/1.1\r\nHost: ${base.host}\r\nAccept: text/event-stream\r\n\r\n`),
  );
  socket.on('data', (text) => {
    c.bytes += text.length;
    const all = c.tail + text;
    if (!c.hello && all.includes('event: hello')) c.hello = true;
    c.eventFrames += all.split('event: event\n').length - 1;
    c.tail = all.slice(-16); // a frame name cut in two is counted in the next chunk
    if (c.tail.includes('event: event\n')) c.tail = '';
  });
  socket.on('end', () => {
    c.ended = true;
  });
  socket.on('close', () => {
    c.ended = true;
  });
  socket.on('error', () => {});
  if (!reading) socket.pause(); // never reads: the kernel's buffers fill, then the emulator's
  return c;
}

const all = Array.from({ length: clients }, (_, i) => streamClient(i >= slow));
const readers = all.filter((c) => c.reading);
const slowOnes = all.filter((c) => !c.reading);
const start = Date.now();
while (readers.some((c) => !c.hello) && Date.now() - start < 60_000) await deadline(50);
await deadline(500); // the non-reading ones asked at the same time
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const pushStarted = Date.now();
let next = 0;
const pusher = async () => {
  while (next < events) {
    next++;
    await admin('/events', { type: 'Issue' });
  }
};
await Promise.all(Array.from({ length: 8 }, pusher));
const pushMs = Date.now() - pushStarted;

// Readers: wait until each saw every event (or a generous minute).
const waitStart = Date.now();
while (readers.some((c) => c.eventFrames < events && !c.ended) && Date.now() - waitStart < 60_000)
  await deadline(100);

// The non-reading ones read now: a dropped one reaches the end of what was sent and sees the close.
for (const c of slowOnes) c.socket.resume();
const drainStart = Date.now();
while (slowOnes.some((c) => !c.ended) && Date.now() - drainStart < 30_000) await deadline(100);

const result = {
  pushMs,
  readers: readers.length,
  readersComplete: readers.filter((c) => c.eventFrames === events && !c.ended).length,
  readerMinFrames: Math.min(...readers.map((c) => c.eventFrames)),
  slow: slowOnes.length,
  slowEnded: slowOnes.filter((c) => c.ended).length,
  slowMaxBytes: Math.max(...slowOnes.map((c) => c.bytes)),
  slowMaxFrames: Math.max(...slowOnes.map((c) => c.eventFrames)),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
for (const c of all) c.socket.destroy();
receiver.close();

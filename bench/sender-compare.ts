/**
 * `npx tsx bench/sender-compare.ts [count]`: the delivery sender on undici (dist/delivery/sender.js,
 * as shipped) against a minimal node:http sender doing the same work (keep-alive agent, one
 * deadline, the response body read, the stale keep-alive retry through `req.reusedSocket`), each
 * POSTing the same gzip notification body to a 200-answering receiver in its own process. Rounds
 * alternate; figures are medians. Written into decision 0051; not a suite of `npm run bench`.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { HttpSender } from '../dist/delivery/sender.js';
import { generateNotification } from '../dist/generate/index.js';
import { stopAll } from './lib/proc.js';
import { startReceiver } from './lib/receiver.js';

const COUNT = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = 16;
const ROUNDS = 5;
const TIMEOUT_MS = 10_000;

interface Send {
  send(url: string, headers: Record<string, string>, body: Buffer): Promise<number>;
  close(): void;
}

function undiciSender(): Send {
  const s = new HttpSender({ timeoutMs: TIMEOUT_MS, maxSockets: CONCURRENCY });
  return {
    send: async (url, headers, body) => (await s.send({ url, headers, body })).statusCode ?? 0,
    close: () => s.close(),
  };
}

/** What the sender would be on node:http: the same deadline, body cap and stale-connection retry. */
function nodeHttpSender(): Send {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, maxTotalSockets: CONCURRENCY });
  const once = (u: URL, headers: Record<string, string>, body: Buffer, retried: boolean) =>
    new Promise<number>((resolve) => {
      const req = http.request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers, agent },
        (res) => {
          res.resume(); // the body is read whole and dropped (the sender keeps its first 4 KiB)
          res.on('end', () => {
            clearTimeout(timer);
            resolve(res.statusCode ?? 0);
          });
          res.on('error', () => resolve(0));
        },
      );
      const timer = setTimeout(() => req.destroy(new Error('deadline')), TIMEOUT_MS);
      req.on('information', () => {}); // 1xx: node:http hands them here and keeps waiting
      req.on('error', () => {
        clearTimeout(timer);
        // A reused keep-alive socket closed under the request: it never reached the receiver.
        if (req.reusedSocket && !retried) resolve(once(u, headers, body, true));
        else resolve(0);
      });
      req.end(body);
    });
  return {
    send: (url, headers, body) => once(new URL(url), headers, body, false),
    close: () => agent.destroy(),
  };
}

async function round(make: () => Send, url: string, headers: Record<string, string>, body: Buffer) {
  const sender = make();
  let next = 0;
  let ok = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < COUNT) {
        next++;
        if ((await sender.send(url, headers, body)) === 200) ok++;
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  sender.close();
  if (ok !== COUNT) throw new Error(`only ${ok} of ${COUNT} answered 200`);
  return { perSecond: (COUNT / ms) * 1000, cpuUsPerRequest: (cpu.user + cpu.system) / COUNT };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const receiver = await startReceiver();
  const event = generateNotification({ event: 'Issue', seed: 7, at: '2026-04-27T10:00:00Z' });
  const body = gzipSync(JSON.stringify(event.target));
  const headers = {
    'User-Agent': 'Service-ReportBO',
    Authorization: 'Bearer ApiKey bench',
    'Content-Type': 'application/json',
    'Content-Encoding': 'gzip',
    'Content-Length': String(body.length),
  };
  const url = `${receiver.url}/hook`;
  type Round = { perSecond: number; cpuUsPerRequest: number };
  const results: Record<'undici' | 'nodeHttp', Round[]> = { undici: [], nodeHttp: [] };
  await round(undiciSender, url, headers, body); // warm-up, both
  await round(nodeHttpSender, url, headers, body);
  for (let i = 0; i < ROUNDS; i++) {
    results.undici.push(await round(undiciSender, url, headers, body));
    results.nodeHttp.push(await round(nodeHttpSender, url, headers, body));
    console.error(
      `round ${i + 1}: undici ${results.undici[i]!.perSecond.toFixed(0)}/s ${results.undici[i]!.cpuUsPerRequest.toFixed(1)} µs CPU; node:http ${results.nodeHttp[i]!.perSecond.toFixed(0)}/s ${results.nodeHttp[i]!.cpuUsPerRequest.toFixed(1)} µs CPU`,
    );
  }
  for (const [name, rs] of Object.entries(results)) {
    console.log(
      `${name}: ${median(rs.map((r) => r.perSecond)).toFixed(0)} POSTs/s, ${median(rs.map((r) => r.cpuUsPerRequest)).toFixed(1)} µs sender CPU per POST (medians of ${ROUNDS} rounds of ${COUNT}, ${CONCURRENCY} in flight, body ${body.length} bytes gzip)`,
    );
  }
} finally {
  await stopAll();
}

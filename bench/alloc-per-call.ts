/**
 * `npx tsx bench/alloc-per-call.ts [<built checkout>]`: bytes the JavaScript heap allocates per 1.7
 * JSON GetAccessToken call under saturating load (wrk, 50 connections, out of process), by the
 * function that allocated them, from V8's sampling heap profiler (one sample per 256 bytes, objects
 * collected later included). A figure of the code's work that the machine's load does not move, unlike
 * CPU per call, so two builds compare on a busy machine too (give the other build's root; one for a
 * commit: see bench/ab-builds.mjs). The emulator runs in this process, as `serve` would (info log,
 * real clock; its log goes to stderr: redirect it). Knobs: `ALLOC_TARGET=hono` loads the bare Hono
 * handler instead (bench/peers/bare-hono.mjs); `ALLOC_SURVIVORS=1` counts only what survived a
 * young-generation GC (what each scavenge copies and promotes).
 */
import { Session } from 'node:inspector/promises';
import { BENCH_USER, jsonRequest17, PATH_JSON_17 } from './lib/fixtures.js';
import { ensureLoadGenerator } from './lib/load.js';
import { freePort } from './lib/proc.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
const generator = ensureLoadGenerator(() => {});
let url: string;
let stop: () => Promise<void>;
if (process.env.ALLOC_TARGET === 'hono') {
  const port = await freePort();
  process.argv[2] = String(port); // bare-hono.mjs reads its port from argv
  await import(new URL('./peers/bare-hono.mjs', import.meta.url).href);
  url = `http://127.0.0.1:${port}`;
  stop = async () => {};
} else {
  const { startEmulator } = await import(`${root}/dist/programmatic/index.js`);
  const emulator = await startEmulator({ users: [BENCH_USER], logLevel: 'info', clock: 'real' });
  url = emulator.url;
  stop = () => emulator.stop();
}
const req = { url: url + PATH_JSON_17, method: 'POST', ...jsonRequest17() };
await generator.run(req, { connections: 50, durationSec: 3 }); // warm-up
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: process.env.ALLOC_SURVIVORS !== '1',
} as never);
const run = await generator.run(req, { connections: 50, durationSec: 3 });
const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
await stop();

const byFunction = new Map<string, number>();
let total = 0;
const walk = (node: ProfileNode) => {
  const f = node.callFrame;
  const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}`;
  total += node.selfSize;
  byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(profile.head);
const perCall = (bytes: number) => String(Math.round(bytes / run.total)).padStart(7);
console.log(
  `${process.env.ALLOC_TARGET === 'hono' ? 'bare Hono' : root}: ${run.total} calls, ${perCall(total).trim()} bytes per call${process.env.ALLOC_SURVIVORS === '1' ? ' surviving a scavenge' : ' allocated'}`,
);
for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${perCall(bytes)}  ${name}`);
}
process.exit(0);

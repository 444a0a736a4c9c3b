/**
 * Many and slow live-stream clients (decision 0044): the real CLI serves; a load generator in its
 * own process (test/helpers/stream-load.mjs) opens 200 raw `GET /__admin/stream` sockets, 50 of
 * which never read, and pushes 5,000 Issue events that are delivered to its loopback receiver. The
 * readers get every event, each non-reading client is dropped past STREAM_CLIENT_BUFFER_BYTES, and
 * the emulator's peak memory stays bounded. The health answer's latency meanwhile is printed, not
 * asserted (a loaded machine; docs/benchmarks.md holds the figures).
 */

import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { STREAM_CLIENT_BUFFER_BYTES } from '../src/admin/stream.js';
import { BIN } from './helpers/cli.js';
import { start } from './helpers/processes.js';

const CLIENTS = 200;
const SLOW = 50;
const EVENTS = 5_000;
const LOAD = new URL('./helpers/stream-load.mjs', import.meta.url).pathname;

async function rssKiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

it('keeps every reading client fed, drops each client that does not read, and holds bounded memory', async () => {
  const urlFile = join(mkdtempSync(join(tmpdir(), 'reportbo-stream-')), 'url');
  const serve = start(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--clock', 'manual', '--allow-http', '--url-file', urlFile],
    { REPORTBO_LOG_FORMAT: 'json', REPORTBO_LOG_LEVEL: 'warn' },
  );
  let url = '';
  const waitStart = Date.now();
  while (!url && Date.now() - waitStart < 60_000) {
    url = (await readFile(urlFile, 'utf8').catch(() => '')).trim();
    if (!url) await new Promise((r) => setTimeout(r, 50));
  }
  expect(url).toMatch(/^http:\/\//);
  const pid = serve.child.pid!;
  const rssBefore = await rssKiB(pid, 'VmRSS');

  const load = start(process.execPath, [LOAD, url, String(CLIENTS), String(SLOW), String(EVENTS)]);
  await load.waitFor(/"ready":true/, 120_000);
  const latencies: number[] = [];
  let finished = false;
  const resultLine = load.waitFor(/(\{"pushMs".*\})/, 300_000).finally(() => {
    finished = true;
  });
  while (!finished) {
    const t = performance.now();
    const res = await fetch(`${url}/__admin/health`);
    await res.text();
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  const result = JSON.parse((await resultLine)[1]!) as Record<string, number>;
  const peakKiB = await rssKiB(pid, 'VmHWM');
  const drops = serve
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; waitingBytes?: number })
    .filter((l) => l.msg.startsWith('live stream client dropped'));
  latencies.sort((a, b) => a - b);
  console.log(
    `stream load: ${CLIENTS} clients (${SLOW} never reading), ${EVENTS} events pushed in ${result.pushMs} ms; ` +
      `health ${latencies.length} samples p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms; ` +
      `readers complete ${result.readersComplete}/${result.readers}; slow dropped ${drops.length}/${SLOW} (largest backlog ${Math.max(...drops.map((d) => d.waitingBytes ?? 0))} bytes, ` +
      `a slow client got at most ${result.slowMaxBytes} bytes); emulator RSS ${Math.round(rssBefore / 1024)} MiB before, peak ${Math.round(peakKiB / 1024)} MiB`,
  );

  // Every reading client got every event, on a connection still open.
  expect(result.readersComplete).toBe(CLIENTS - SLOW);
  // Every non-reading client was dropped, each just past the bound, and saw its connection end.
  expect(drops).toHaveLength(SLOW);
  for (const d of drops) {
    expect(d.waitingBytes).toBeGreaterThan(STREAM_CLIENT_BUFFER_BYTES);
    expect(d.waitingBytes).toBeLessThan(STREAM_CLIENT_BUFFER_BYTES + 16 * 1024);
  }
  expect(result.slowEnded).toBe(SLOW);
  expect(result.slowMaxFrames).toBeLessThan(EVENTS);
  // Bounded: 50 clients × (3 × 256 KiB) is under 40 MiB; the peak stays far below what holding
  // every event for every slow client would take.
  expect(peakKiB / 1024).toBeLessThan(400);
  serve.child.kill('SIGTERM');
  expect(await serve.exited()).toBe(0);
}, 600_000);

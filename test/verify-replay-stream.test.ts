/**
 * `verify --replay` streams its report (issue 43 §7): a report near the 64 MiB cap is read through
 * the real CLI with a V8 heap smaller than the file, so a replay that held the file's text, or the
 * object it parses into, runs out of memory; one that reads it incrementally, keeping no body until
 * it sends it, replays every notification. The report is read once before the first send (decision
 * 0237): a hook loaded into the CLI (`--import`) counts the streams opened on it.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';
import { listenLoopback } from './helpers/verify-receivers.js';

const CASE = 'acknowledges-every-status';
const NOTIFICATIONS = 1_200;
/** Each body's bytes: 1,200 of them make a file of about 58 MiB of base64. */
const BODY_BYTES = 36 * 1024;
/** The heap the CLI gets: far below the file, far above what a streaming replay keeps. */
const HEAP_MB = 48;
/**
 * The young generation's semi-space, in MB. With V8's default (16 MB) the old generation's room left
 * under HEAP_MB (~25 MB over the CLI's ~23 MB live) is less than the young generation may promote, so
 * V8 marks the old generation over and over: ~230 full collections, 14 of the CLI's 15 CPU-s. A 1 MB
 * semi-space keeps the heap smaller still (decision 0271).
 */
const SEMI_SPACE_MB = 1;
let dir: string;

/**
 * Loaded into the CLI with `--import`: wraps `fs.createReadStream` (the ESM bindings follow through
 * `syncBuiltinESMExports`) and writes one line to REPLAY_READS_LOG for each stream it opens.
 */
const READ_HOOK = `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const open = fs.createReadStream;
fs.createReadStream = (path, ...rest) => {
  fs.appendFileSync(process.env.REPLAY_READS_LOG, String(path) + '\\n');
  return open(path, ...rest);
};
syncBuiltinESMExports();
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-replay-stream-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a `verify --json`-shaped report piece by piece (never the whole text at once); answers the bodies' first bytes. */
async function largeReport(file: string, receiver: string): Promise<string[]> {
  const out = createWriteStream(file);
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => out.write(text, (err) => (err ? reject(err) : resolve())));
  const heads: string[] = [];
  await write(
    `{\n  "receiver": ${JSON.stringify(receiver)},\n  "probeDeadlineMs": 1000,\n  "responseTimeoutMs": 5000,\n  "cases": [\n    {\n      "id": "${CASE}",\n      "status": "failed",\n      "reason": "a large one",\n      "trace": {\n        "notifications": [`,
  );
  for (let i = 0; i < NOTIFICATIONS; i++) {
    const body = randomBytes(BODY_BYTES);
    heads.push(body.subarray(0, 16).toString('hex'));
    const n = {
      n: i + 1,
      bookingId: 5_000_000 + i,
      bookingNumber: 'STREAM',
      bookingStatus: 'Issued',
      updateDate: '2026-11-25T22:41:03Z',
      filename: `20261125_224103Z-STREAM${i}.json`,
      credential: 'api-key',
      gzipBase64: body.toString('base64'),
      attempts: [
        {
          atMs: i,
          durationMs: 1,
          outcome: 'http_status',
          status: 200,
          message: 'HTTP 200',
          acknowledged: true,
        },
      ],
    };
    await write(`${i ? ',' : ''}\n          ${JSON.stringify(n)}`);
  }
  await write('\n        ],\n        "probe": []\n      }\n    }\n  ]\n}\n');
  await new Promise((resolve) => out.end(resolve));
  return heads;
}

describe('verify --replay streams its report', () => {
  it(`replays a report of ~58 MiB with a ${HEAP_MB} MB heap, read once, every body byte for byte`, {
    timeout: 300_000,
  }, async () => {
    const got = new Set<string>();
    let posts = 0;
    const server = await listenLoopback((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        posts++;
        got.add(Buffer.concat(parts).subarray(0, 16).toString('hex'));
        res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      });
    });
    try {
      const file = join(dir, 'large.json');
      const heads = await largeReport(file, `${server.base}/reportbo`);
      expect((await stat(file)).size).toBeGreaterThan(HEAP_MB * 1024 * 1024);
      const hook = join(dir, 'count-reads.mjs');
      const log = join(dir, 'reads.log');
      await writeFile(hook, READ_HOOK);
      await writeFile(log, '');
      const run = await runCli(
        ['verify', '--replay', file, '--only', CASE, '--api-key', 'stream-key', '--allow-http'],
        {
          NODE_OPTIONS: `--max-old-space-size=${HEAP_MB} --max-semi-space-size=${SEMI_SPACE_MB} --import ${hook}`,
          REPLAY_READS_LOG: log,
        },
        ROOT,
      );
      expect(run.code, run.stdout + run.stderr.slice(-2_000)).toBe(0);
      expect(run.stdout).toMatch(
        new RegExp(`replayed ${NOTIFICATIONS} notifications \\(${NOTIFICATIONS} requests\\)`),
      );
      expect(posts).toBe(NOTIFICATIONS);
      // One stream over the report: its settings, the case's counts and its trace in one reading.
      expect((await readFile(log, 'utf8')).split('\n').filter((line) => line === file)).toHaveLength(1);
      expect([...heads].filter((h) => !got.has(h))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

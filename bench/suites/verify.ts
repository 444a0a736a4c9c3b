/**
 * `verify`: wall time of a full conformance run (all 16 cases, --probe included) against a correct
 * local receiver, the reference one (docker/sample-receiver, HTTPS, its own process). Measured in
 * process (`verifyReceiver`) and through the CLI (`node bin/reportbo-emulator.js verify`, start-up
 * included). Target: < 10 s of wall time (decision 0027). Self-contained: node built-ins and dist/ only.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createCertificateAuthority,
  createServerCertificate,
  writeCertificateFiles,
} from '../../dist/certs/index.js';
import { type VerifyReport, verifyReceiver } from '../../dist/index.js';
import type { BenchSuite } from '../types.js';
import { fmt, median } from '../types.js';

const TARGET_MS = 10_000;
const ROUNDS = 3;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_KEY = 'bench-key';
const run = promisify(execFile);

/** Starts the sample receiver on a free port; answers its base URL and the child. */
async function startSampleReceiver(dir: string): Promise<{ base: string; child: ChildProcess; ca: string }> {
  const ca = createCertificateAuthority({ commonName: 'bench verify CA' });
  const files = await writeCertificateFiles(
    join(dir, 'certs'),
    createServerCertificate({ ca, hosts: ['localhost'] }),
    ca,
  );
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'docker/sample-receiver/server.js'),
      '--port',
      '0',
      '--cert',
      files.cert,
      '--key',
      files.key,
      '--api-key',
      API_KEY,
      '--out',
      join(dir, 'received'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on https:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sample receiver exited ${code}: ${out}`)));
  });
  child.stdout!.resume();
  return { base: `https://localhost:${port}`, child, ca: files.caCert! };
}

const suite: BenchSuite = {
  name: 'verify',
  title: 'verify: a full conformance run against a correct receiver',
  async run(log) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-verify-'));
    const { base, child, ca } = await startSampleReceiver(dir);
    const args = {
      receiver: `${base}/reportbo`,
      apiKey: API_KEY,
      caFile: ca,
      probe: `${base}/bookings/{BookingID}`,
    };
    try {
      const inProcess: number[] = [];
      let last: VerifyReport | undefined;
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        last = await verifyReceiver(args);
        inProcess.push(performance.now() - t0);
        if (last.failed > 0)
          throw new Error(`a case failed against the sample receiver: ${JSON.stringify(last.cases)}`);
        log(`in process, round ${r + 1}: ${fmt(inProcess[r]!)} ms (${last.passed} passed)`);
      }
      const cli: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        await run(process.execPath, [
          join(ROOT, 'bin/reportbo-emulator.js'),
          'verify',
          '--receiver',
          args.receiver,
          '--api-key',
          API_KEY,
          '--ca-file',
          ca,
          '--probe',
          args.probe,
        ]);
        cli.push(performance.now() - t0);
        log(`CLI, round ${r + 1}: ${fmt(cli[r]!)} ms`);
      }
      const slowest = [...last!.cases].sort((a, b) => b.durationMs - a.durationMs).slice(0, 3);
      const met = (ms: number) => (ms < TARGET_MS ? 'met' : '**missed**');
      return [
        `Every case passed in every round (16 cases, \`--probe\` included). Median of ${ROUNDS} rounds; target < ${TARGET_MS / 1000} s.`,
        '',
        '| run | median | min | max | target |',
        '|---|---|---|---|---|',
        `| \`verifyReceiver\` in process | ${fmt(median(inProcess))} ms | ${fmt(Math.min(...inProcess))} ms | ${fmt(Math.max(...inProcess))} ms | ${met(median(inProcess))} |`,
        `| \`reportbo-emulator verify\` (CLI, start-up included) | ${fmt(median(cli))} ms | ${fmt(Math.min(...cli))} ms | ${fmt(Math.max(...cli))} ms | ${met(median(cli))} |`,
        '',
        `Slowest cases of the last in-process run: ${slowest.map((c) => `${c.id} ${fmt(c.durationMs)} ms`).join(', ')}.`,
        `Answer times over that run: ${last!.cases.find((c) => c.id === 'answers-within-timeout')?.reason ?? 'n/a'}.`,
      ].join('\n');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default suite;

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from './helpers/cli.js';
import { testCaFile } from './helpers/tls.js';

const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

/** Starts the real CLI and resolves with the URL it logs once listening. */
async function startCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  children.push(child);
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/[\d.:[\]]+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { url, child, log: () => err };
}

describe('reportbo-emulator serve', () => {
  it('answers health on the port given by the PORT environment variable', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const { url } = await startCli([], { PORT: String(port), REPORTBO_LOG_LEVEL: 'info' });
    expect(url).toBe(`http://127.0.0.1:${port}`);
    const res = await fetch(`${url}/__admin/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', clock: 'real' });
  });

  it('answers the effective settings on GET /__admin/config and lists the same on the start log line, without secrets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reportbo-config-'));
    try {
      const config = join(dir, 'config.yaml');
      writeFileSync(
        config,
        [
          'users:',
          '  - {username: alice, password: pw-do-not-show, idWeb: 1, webDescription: A}',
          'credentials:',
          '  - {id: c1, apiKey: key-do-not-show, url: "http://127.0.0.1:9/hook"}',
        ].join('\n'),
      );
      const ca = testCaFile();
      const { url, log } = await startCli(
        ['serve', '--port', '0', '--config', config, '--clock', 'compressed', '--hour-ms', '500'],
        {
          REPORTBO_ALLOW_HTTP: 'true',
          REPORTBO_RESPONSE_TIMEOUT_MS: '1234',
          REPORTBO_SEED: '5',
          REPORTBO_CA_FILE: ca,
          REPORTBO_BASE_PATH_17: '/v17',
          REPORTBO_ACCEPT_LOWERCASE_KEYS: 'true',
          REPORTBO_LOG_LEVEL: 'info',
          REPORTBO_DATA_DIR: join(dir, 'data'),
        },
      );
      const res = await fetch(`${url}/__admin/config`);
      expect(res.status).toBe(200);
      const answered = await res.json();
      expect(answered).toEqual({
        responseTimeoutMs: 1234,
        allowHttp: true,
        clock: { mode: 'compressed', hourMs: 500 },
        deliveryConcurrency: 32,
        apiVersions: { '1.6': '1.6.0.0', '1.7': '1.7.0.0' },
        basePaths: { '1.6': '/api/1.6', '1.7': '/v17' },
        caFile: ca,
        trustedCaCount: 1,
        acceptLowercaseKeys: true,
        exchangeNotifies: 'both',
        seed: 5,
        logLevel: 'info',
        logLinesPerSecond: 10,
        journalEntries: 10_000,
        notificationRetention: 100_000,
        retentionDropsExhausted: false,
        shutdownGraceMs: 5000,
        allowedHosts: [],
        adminToken: false,
        dataDir: join(dir, 'data'),
      });
      const line = log()
        .split('\n')
        .find((l) => l.includes('listening on'));
      expect(JSON.parse(line!).config).toEqual(answered);
      for (const text of [JSON.stringify(answered), log()]) {
        expect(text).not.toContain('pw-do-not-show');
        expect(text).not.toContain('key-do-not-show');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops cleanly on SIGTERM with exit code 0', async () => {
    const { child } = await startCli(['serve', '--port', '0']);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses a bad setting with exit code 2 and a message naming the flag the user typed', async () => {
    const { code, stderr: err } = await runCli(['serve', '--clock', 'sometimes']);
    expect(code).toBe(2);
    expect(err).toMatch(/Setting --clock: /);
    expect(err).toMatch(/real.*compressed.*manual/);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('prints help naming every serve option with its environment variable', async () => {
    const { code, stdout: out } = await runCli(['serve', '--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--port',
      '--clock',
      '--hour-ms',
      '--response-timeout-ms',
      '--allow-http',
      '--ca-file',
    ]) {
      expect(out).toContain(flag);
    }
    expect(out).toContain('REPORTBO_CLOCK');
  });
});

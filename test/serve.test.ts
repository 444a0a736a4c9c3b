import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from './helpers/cli.js';

const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

/** Starts the real CLI and resolves with the URL it logs once listening. */
async function startCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
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
  return { url, child };
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

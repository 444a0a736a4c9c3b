/**
 * Messages a user meets when starting the emulator name the thing the way the user gave it: a port
 * in use says which one and how to pick another; a setting is named as a flag, an environment
 * variable, a config file key, a scenario's `settings.x`, or a `startEmulator` option, never as a
 * flag the user did not type (decision 0019).
 */
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { ROOT, runCli, runMain } from './helpers/cli.js';
import { receiver } from './helpers/receiver.js';
import { scenarioDir } from './helpers/scenario-cli.js';
import { testCa, tlsReceiver } from './helpers/tls.js';

const STACK = /\n\s+at /;
const blockers: Server[] = [];
afterEach(async () => {
  await Promise.all(blockers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A loopback port some other program already listens on. */
async function busyPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  blockers.push(server);
  return (server.address() as { port: number }).port;
}

const files = scenarioDir();

describe('a port that is already in use', () => {
  it('serve --port: exit 1, names the port and how to choose another, no stack trace', async () => {
    const port = await busyPort();
    const { code, stderr } = await runCli(['serve', '--port', String(port)]);
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(stderr).toContain('--port <n>');
    expect(stderr).toMatch(/REPORTBO_PORT=<n> or PORT=<n>/);
    expect(stderr).not.toContain('EADDRINUSE');
    expect(stderr).not.toContain('unexpected error');
    expect(stderr).not.toMatch(STACK);
  });

  it('serve with PORT in the environment: the same message, and the process ends by itself', async () => {
    const port = await busyPort();
    const { code, stderr } = await runCli([], { PORT: String(port) });
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(stderr).not.toMatch(STACK);
  });

  it('startEmulator rejects with code port_in_use, the port in details and the option to change', async () => {
    const port = await busyPort();
    const err = await startEmulator({ port }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'port_in_use',
      category: 'conflict',
      details: { port, host: '127.0.0.1' },
    });
    expect((err as Error).message).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect((err as Error).message).toContain('option port');
    expect((err as Error).message).not.toContain('--port');
  });
});

describe('a setting is named where the user wrote it', () => {
  it('a scenario: settings.caFile in that file, resolved against the file folder, never --ca-file', async () => {
    mkdirSync(join(files.dir, 'ca-missing'), { recursive: true });
    const file = files.write(
      'ca-missing/s.yaml',
      'name: ca\nsettings: { caFile: ./nope.pem }\nsteps:\n  - issue: {}\n',
    );
    const shown = relative(ROOT, file);
    const { code, stdout } = await runCli(['run', shown]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      `settings.caFile in ${shown} (${join(files.dir, 'ca-missing', 'nope.pem')}): cannot read it (no such file)`,
    );
    expect(stdout).not.toContain('--ca-file');
  });

  it('a scenario: a relative settings.caFile next to the file is read from there, whatever the working directory', async () => {
    const r = await tlsReceiver('trusted');
    mkdirSync(join(files.dir, 'ca-here'), { recursive: true });
    files.write('ca-here/my-ca.pem', testCa().certPem);
    const file = files.write(
      'ca-here/s.yaml',
      [
        'name: own CA',
        'settings: { caFile: my-ca.pem }',
        'credentials:',
        `  - { id: mine, apiKey: k, url: "${r.url}/hook" }`,
        'steps:',
        '  - issue: {}',
        '  - expect: { notifications: { count: 1, state: delivered, statusCode: 200 } }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await runCli(['run', file], {}, files.dir);
    expect(stdout).toContain('1 passed');
    expect(code).toBe(0);
    expect(r.requests).toHaveLength(1);
  });

  it('a scenario: an http:// credential suggests settings.allowHttp: true in that file, not --allow-http', async () => {
    const r = await receiver();
    const file = files.write(
      'http.yaml',
      `name: plain\ncredentials:\n  - { id: a, apiKey: k, url: "${r.url}/hook" }\nsteps:\n  - issue: {}\n`,
    );
    const { code, stdout } = await runCli(['run', file]);
    expect(code).toBe(1);
    expect(stdout).toContain(`set settings.allowHttp: true in ${file}`);
    expect(stdout).not.toContain('--allow-http');
  });

  it('serve --scenario: an http:// credential suggests the flag, its variable and the scenario setting', async () => {
    const file = files.write(
      'serve-http.yaml',
      'name: plain\ncredentials:\n  - { id: a, apiKey: k, url: "http://127.0.0.1:9/hook" }\nsteps:\n  - issue: {}\n',
    );
    const { code, stderr } = await runCli(['serve', '--port', '0', '--scenario', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `start serve with --allow-http (env REPORTBO_ALLOW_HTTP=true), or set settings.allowHttp: true in ${file}`,
    );
    expect(stderr).not.toMatch(STACK);
  });

  it('serve: a flag as the flag, a variable as the variable, a config file key as that key', async () => {
    const byFlag = await runCli(['serve', '--port', '0', '--ca-file', 'flag.pem']);
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toContain('--ca-file (flag.pem): cannot read it (no such file)');

    const byEnv = await runCli(['serve', '--port', '0'], { REPORTBO_CA_FILE: 'env.pem' });
    expect(byEnv.stderr).toContain('environment variable REPORTBO_CA_FILE (env.pem): cannot read it');
    expect(byEnv.stderr).not.toContain('--ca-file');

    // The two above through the real CLI, the rest through the same main() in this process.
    const config = files.write('config.yaml', 'caFile: top.pem\nsettings:\n  clock: sometimes\n');
    const byConfig = await runMain(['serve', '--port', '0', '--config', config]);
    expect(byConfig.code).toBe(2);
    expect(byConfig.stderr).toContain(`Setting settings.clock in ${config}:`);
    writeFileSync(config, 'caFile: top.pem\n');
    const byConfigKey = await runMain(['serve', '--port', '0', '--config', config]);
    expect(byConfigKey.stderr).toContain(`caFile in ${config} (top.pem): cannot read it`);
    expect(byConfigKey.stderr).not.toContain('--ca-file');

    const byEnvClock = await runMain(['serve', '--port', '0'], { REPORTBO_CLOCK: 'sometimes' });
    expect(byEnvClock.code).toBe(2);
    expect(byEnvClock.stderr).toContain('Setting environment variable REPORTBO_CLOCK:');
  });

  it('startEmulator: options by their names (caFile, allowHttp), never as flags', async () => {
    const ca = await startEmulator({ caFile: 'nope.pem' }).catch((e: Error) => e);
    expect(ca).toMatchObject({ code: 'ca_file_unreadable' });
    expect((ca as Error).message).toContain('option caFile (nope.pem): cannot read it');
    expect((ca as Error).message).not.toContain('--ca-file');

    const http = await startEmulator({
      credentials: [{ apiKey: 'k', url: 'http://127.0.0.1:9/hook' }],
    }).catch((e: Error) => e);
    expect(http).toMatchObject({ code: 'http_not_allowed' });
    expect((http as Error).message).toContain('pass the option allowHttp: true');
    expect((http as Error).message).not.toContain('--allow-http');

    const clock = await startEmulator({ clock: 'real', clockStart: '2026-01-01T00:00:00Z' }).catch(
      (e: Error) => e,
    );
    expect((clock as Error).message).toContain('option clockStart needs a compressed or manual clock');
    expect((clock as Error).message).not.toContain('--clock');
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runMain } from './helpers/cli.js';
import { serveCli } from './helpers/processes.js';

// The real CLI from dist/ (npm run build first). Every refusal happens before the port is opened.
const serve = (...args: string[]) => runCli(['serve', '--port', '0', ...args]);
// The same main() in this process (no process start each): the refusals past the first two.
const serveHere = (...args: string[]) => runMain(['serve', '--port', '0', ...args]);
let viaProcess = 2;
// main() in this process with only `env` added to process.env.
const serveWithEnv = (env: Record<string, string>) => runMain(['serve', '--port', '0'], env);

describe('settings that are wrong are refused at start with exit 2, naming the setting (issue 31 §3)', () => {
  it.each([
    ['an API version with CR/LF', ['--api-version-17', '1.7\r\nX-Evil: 1'], '--api-version-17'],
    [
      'a clock start past the Date range',
      ['--clock', 'manual', '--clock-start', '+275760-09-14T00:00:00Z'],
      '--clock-start',
    ],
    [
      'a clock start past year 9999',
      ['--clock', 'manual', '--clock-start', '10000-01-01T00:00:00Z'],
      '--clock-start',
    ],
    ['a whitespace-only admin token', ['--admin-token', '   '], '--admin-token'],
    ['a 1.6 base path under /__admin', ['--base-path-16', '/__admin'], '--base-path-16'],
    ['a 1.7 base path under /__admin', ['--base-path-17', '/__ADMIN/api'], '--base-path-17'],
    [
      'the same base path for both versions',
      ['--base-path-16', '/api', '--base-path-17', '/API/'],
      '--base-path-17',
    ],
    ['a hexadecimal port', ['--port', '0x50'], '--port'],
    ['a port in exponent form', ['--port', '1e3'], '--port'],
  ])('%s', async (_, args, named) => {
    const run = viaProcess-- > 0 ? await serve(...args) : await serveHere(...args);
    expect(run.code, run.stderr + run.stdout).toBe(2);
    expect(run.stderr).toContain(named);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a misspelt key in a config file is an error naming the closest valid key, not an open admin API', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reportbo-config-'));
    const top = join(dir, 'top.yaml');
    writeFileSync(top, 'adminTokn: secret\n');
    const run = await serve('--config', top);
    expect(run.code, run.stderr + run.stdout).toBe(2);
    expect(run.stderr).toContain(
      `${top}: adminTokn: unknown setting "adminTokn" (did you mean "adminToken"?)`,
    );
    const nested = join(dir, 'nested.json');
    writeFileSync(nested, JSON.stringify({ settings: { responseTimoutMs: 1000 } }));
    const again = await serveHere('--config', nested);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(
      'settings.responseTimoutMs: unknown setting "responseTimoutMs" (did you mean "responseTimeoutMs"?)',
    );
  });

  it('a REPORTBO_ variable that matches no setting is an error naming the closest one, not an open admin API (issue 43 §6)', async () => {
    const run = await runCli(['serve', '--port', '0'], { REPORTBO_ADMIN_TOKN: 'secret' });
    expect(run.code, run.stderr + run.stdout).toBe(2);
    expect(run.stderr).toContain(
      'unknown environment variable "REPORTBO_ADMIN_TOKN" (did you mean "REPORTBO_ADMIN_TOKEN"?)',
    );
    expect(run.stdout + run.stderr).not.toContain('listening');
    const far = await serveWithEnv({ REPORTBO_NOTHING_LIKE_IT: '1' });
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('unknown environment variable "REPORTBO_NOTHING_LIKE_IT"');
    expect(far.stderr).toContain('REPORTBO_ADMIN_TOKEN'); // the valid ones are listed
  });

  it.each([
    ['REPORTBO_DATA_DIR', 'environment variable REPORTBO_DATA_DIR'],
    ['REPORTBO_HOST', 'environment variable REPORTBO_HOST'],
    ['REPORTBO_ADMIN_TOKEN', 'environment variable REPORTBO_ADMIN_TOKEN'],
    ['REPORTBO_PORT', 'environment variable REPORTBO_PORT'],
    ['REPORTBO_ALLOW_HTTP', 'environment variable REPORTBO_ALLOW_HTTP'],
  ])('an empty %s is refused as its flag refuses "" (issue 43 §6)', async (variable, named) => {
    // The first through the real CLI; the rest through main() here.
    const run =
      variable === 'REPORTBO_DATA_DIR'
        ? await runCli(['serve', '--port', '0'], { [variable]: '' })
        : await serveWithEnv({ [variable]: '' });
    expect(run.code, run.stderr + run.stdout).toBe(2);
    expect(run.stderr).toContain(named);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("an empty PORT (the platform's variable, not ours) is read as unset", async () => {
    const { started: p } = await serveCli(['--log-format', 'json'], { PORT: '' });
    expect(p.output()).toContain('listening on');
    p.child.kill('SIGTERM');
    expect(await p.exited()).toBe(0);
  });
});

describe('serve refused in a process that lives on (main() called again, as startEmulator users and the tests do)', () => {
  it('leaves at most one SIGXFSZ listener behind, however many times serve ran', async () => {
    await serveHere('--clock', 'sometimes');
    const once = process.listenerCount('SIGXFSZ');
    expect(once).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 3; i++) expect((await serveHere('--clock', 'sometimes')).code).toBe(2);
    expect(process.listenerCount('SIGXFSZ')).toBe(once);
  });
});

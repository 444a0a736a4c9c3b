/**
 * Configuration without files (decision 0062): users, credentials and trusted CAs given as
 * environment variables alone, as a GitHub Actions service container must give them. The real CLI
 * (`serve`) runs with nothing but environment variables; a bad value fails start-up with the message
 * a config file's bad entry gets.
 */

import { mkdtempSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, runMain } from './helpers/cli.js';
import { start } from './helpers/processes.js';
import { testCa, tlsReceiver } from './helpers/tls.js';

const USER = { username: 'sdk', password: 'secret', idWeb: 1001, webDescription: 'CI', versions: ['1.7'] };

describe('serve configured by environment variables alone', () => {
  it('answers a 1.7 token for the user of REPORTBO_USERS and delivers to the credential of REPORTBO_CREDENTIALS over HTTPS trusted by REPORTBO_CA_PEM', async () => {
    const receiver = await tlsReceiver('trusted');
    const serve = start(process.execPath, [BIN, 'serve'], {
      REPORTBO_PORT: '0',
      REPORTBO_CLOCK: 'manual',
      REPORTBO_LOG_FORMAT: 'json',
      REPORTBO_USERS: JSON.stringify([USER]),
      REPORTBO_CREDENTIALS: JSON.stringify([{ id: 'ci', apiKey: 'ci-key', url: `${receiver.url}/reportbo` }]),
      // A service's env cannot always hold newlines: escaped ones are accepted.
      REPORTBO_CA_PEM: testCa().certPem.replaceAll('\n', '\\n'),
    });
    const [, url] = await serve.waitFor(/listening on (http:\/\/[\d.:]+)/);
    // Health and --version name the package's version.
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await (await fetch(`${url}/__admin/health`)).json()).toMatchObject({ status: 'ok', version });
    expect((await runCli(['--version'])).stdout.trim()).toBe(version);

    const token = await fetch(`${url}/api/1.7/AuthService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'sdk', Password: 'secret' }),
    });
    expect(await token.json()).toMatchObject({ IDWeb: 1001, WebDescription: 'CI', TransactionCode: null });

    await fetch(`${url}/__admin/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":"Issue"}',
    });
    const settled = (await (await fetch(`${url}/__admin/notifications?wait=settled`)).json()) as {
      notifications: Array<{ credentialId: string; state: string }>;
    };
    expect(settled.notifications).toEqual([
      expect.objectContaining({ credentialId: 'ci', state: 'delivered' }),
    ]);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers.authorization).toBe('Bearer ci-key');

    const trust = (await (await fetch(`${url}/__admin/trust`)).json()) as {
      certificates: Array<{ source: string }>;
    };
    expect(trust.certificates.map((c) => c.source)).toEqual(['ca-pem']);
  });

  it('refuses a bad user, credential or CA at start with the message a config file gets, naming the variable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-env-'));
    const bad = { username: 'sdk', password: 'secret' };
    await writeFile(join(dir, 'c.json'), JSON.stringify({ users: [bad] }));
    const fromFile = await runCli(['serve', '--port', '0', '--config', join(dir, 'c.json')]);
    const fromEnv = await runCli(['serve'], { REPORTBO_PORT: '0', REPORTBO_USERS: JSON.stringify([bad]) });
    expect(fromFile.code).toBe(2);
    expect(fromEnv.code).toBe(2);
    const rest = (s: string) => s.slice(s.indexOf(': field'));
    expect(fromFile.stderr).toContain('users[0]: field idWeb');
    expect(fromEnv.stderr).toContain('REPORTBO_USERS[0]: field idWeb');
    expect(rest(fromEnv.stderr)).toBe(rest(fromFile.stderr));

    const notJson = await runMain(['serve'], { REPORTBO_PORT: '0', REPORTBO_CREDENTIALS: '[{"id":' });
    expect(notJson.stderr).toContain('environment variable REPORTBO_CREDENTIALS: not valid JSON');
    const notList = await runMain(['serve'], { REPORTBO_PORT: '0', REPORTBO_CREDENTIALS: '{"id":"x"}' });
    expect(notList.stderr).toContain(
      'environment variable REPORTBO_CREDENTIALS: "credentials" must be a list.',
    );
    const http = await runMain(['serve'], {
      REPORTBO_PORT: '0',
      REPORTBO_CREDENTIALS: '[{"id":"x","apiKey":"k","url":"http://localhost:1/r"}]',
    });
    expect(http.stderr).toContain('REPORTBO_CREDENTIALS[0].url');
    const pem = await runMain(['serve'], { REPORTBO_PORT: '0', REPORTBO_CA_PEM: 'not a certificate' });
    expect(pem.stderr).toContain('environment variable REPORTBO_CA_PEM: no PEM certificate found');
    // The two above through the real CLI, these four through the same main() in this process.
    for (const run of [notJson, notList, http, pem]) {
      expect(run.code).toBe(2);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('lets REPORTBO_USERS replace the users of a config file, as every variable outranks the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-env-'));
    await writeFile(join(dir, 'c.json'), JSON.stringify({ users: [{ ...USER, username: 'from-file' }] }));
    const serve = start(process.execPath, [BIN, 'serve', '--config', join(dir, 'c.json')], {
      REPORTBO_PORT: '0',
      REPORTBO_USERS: JSON.stringify([USER]),
    });
    const [, url] = await serve.waitFor(/listening on (http:\/\/[\d.:]+)/);
    const users = (await (await fetch(`${url}/__admin/users`)).json()) as {
      users: Array<{ username: string }>;
    };
    expect(users.users.map((u) => u.username)).toEqual(['sdk']);
  });
});

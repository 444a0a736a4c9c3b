/**
 * The admin API's door (docs/admin-api.md "Security"), through a real socket: what a web page could
 * send (a text/plain or form body, a foreign Origin, a DNS-rebinding Host) is refused with a problem
 * that names what to change, and with a token set nothing but health and the dashboard's files
 * answers without it. GetAccessToken never meets any of it.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { startApiServer } from './helpers/api-server.js';
import { serveCli } from './helpers/processes.js';
import { testCa } from './helpers/tls.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): { error?: { code: string; message: string; details?: Record<string, unknown> } } & Record<
    string,
    unknown
  >;
}

/** One request with exactly these headers (node:http: fetch may not set Host), read to the end or to `stopAfterHeaders`. */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, method, path, headers, setHost: !('host' in headers), agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        // A stream never ends: its status and headers are the answer.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, text, json: () => ({}) });
          return;
        }
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const credential = (id: string) => JSON.stringify({ id, apiKey: 'k', url: 'https://receiver.test/hook' });

describe('without a token: what a web page could send is refused', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startApiServer({ allowedHosts: 'emulator.ci.example' });
  });
  afterAll(() => emu.close());

  it('refuses a text/plain write (415) and changes nothing; the same body as JSON is accepted', async () => {
    const refused = await raw(
      emu.url,
      'POST',
      '/__admin/credentials',
      { 'content-type': 'text/plain' },
      credential('a'),
    );
    expect(refused.status).toBe(415);
    expect(refused.json().error).toMatchObject({
      code: 'admin_content_type_refused',
      details: { accepted: ['application/json'], got: 'text/plain' },
    });
    expect(refused.json().error!.message).toContain("-H 'Content-Type: application/json'");
    const form = await raw(
      emu.url,
      'POST',
      '/__admin/reset',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'a=b',
    );
    expect(form.status).toBe(415);
    expect((await raw(emu.url, 'GET', '/__admin/credentials')).json()).toEqual({ credentials: [] });
    const ok = await raw(emu.url, 'POST', '/__admin/credentials', JSON_TYPE, credential('a'));
    expect(ok.status).toBe(201);
  });

  it('lets a write without a body and without a type through (curl -X DELETE, curl -X POST …/reset)', async () => {
    expect((await raw(emu.url, 'DELETE', '/__admin/credentials/a')).status).toBe(204);
    expect((await raw(emu.url, 'POST', '/__admin/reset')).status).toBe(200);
  });

  it('takes PEM text on /trust only under a PEM type a page cannot send cross-site', async () => {
    const pem = testCa().certPem;
    const form = await raw(
      emu.url,
      'POST',
      '/__admin/trust',
      { 'content-type': 'application/x-www-form-urlencoded' },
      pem,
    );
    expect(form.status).toBe(415);
    expect(form.json().error!.details!.accepted).toEqual([
      'application/json',
      'application/x-pem-file',
      'application/pem-certificate-chain',
    ]);
    const ok = await raw(
      emu.url,
      'POST',
      '/__admin/trust',
      { 'content-type': 'application/x-pem-file' },
      pem,
    );
    expect(ok.status).toBe(201);
  });

  it('refuses a foreign Origin on writes and reads, POST /verify included; its own origin passes', async () => {
    const evil = { ...JSON_TYPE, origin: 'https://evil.example' };
    const write = await raw(emu.url, 'POST', '/__admin/credentials', evil, credential('b'));
    expect(write.status).toBe(403);
    expect(write.json().error).toMatchObject({
      code: 'admin_origin_refused',
      details: { origin: 'https://evil.example', setting: 'allowedHosts' },
    });
    expect(write.json().error!.message).toContain('pass the option allowedHosts: evil.example');
    const verify = await raw(
      emu.url,
      'POST',
      '/__admin/verify',
      evil,
      JSON.stringify({ receiver: 'http://127.0.0.1:9/', apiKey: 'k', allowHttp: true }),
    );
    expect(verify.status).toBe(403);
    // Another port on localhost is another origin (another dev server, another page).
    const otherPort = await raw(emu.url, 'GET', '/__admin/notifications', { origin: 'http://localhost:1' });
    expect(otherPort.status).toBe(403);
    const sandboxed = await raw(emu.url, 'POST', '/__admin/reset', { origin: 'null' });
    expect(sandboxed.status).toBe(403);
    const own = await raw(
      emu.url,
      'POST',
      '/__admin/credentials',
      { ...JSON_TYPE, origin: emu.url },
      credential('b'),
    );
    expect(own.status).toBe(201);
    // The dashboard served under a listed name (a proxy) is the emulator's own page too.
    const listed = await raw(emu.url, 'POST', '/__admin/reset', { origin: 'https://emulator.ci.example' });
    expect(listed.status).toBe(200);
  });

  it('refuses a DNS-rebinding Host on every admin route but health; loopback, IPs, service names and listed names pass', async () => {
    const port = new URL(emu.url).port;
    for (const [method, path] of [
      ['GET', '/__admin/config'],
      ['GET', '/__admin/notifications'],
      ['POST', '/__admin/reset'],
      ['GET', '/__admin/stream'],
    ] as const) {
      const res = await raw(emu.url, method, path, { host: `rebind.evil.example:${port}` });
      expect(res.status, path).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'admin_host_not_allowed',
        details: { host: 'rebind.evil.example', setting: 'allowedHosts' },
      });
      expect(res.json().error!.message).toContain('pass the option allowedHosts: rebind.evil.example');
    }
    const health = await raw(emu.url, 'GET', '/__admin/health', { host: `rebind.evil.example:${port}` });
    expect(health.status).toBe(200);
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `10.1.2.3:${port}`,
      `emulator:${port}`,
      `EMULATOR.CI.EXAMPLE:${port}`,
      `app.localhost:${port}`,
    ]) {
      expect((await raw(emu.url, 'GET', '/__admin/config', { host })).status, host).toBe(200);
    }
  });

  it('leaves GetAccessToken alone: a foreign Origin, a rebinding Host and text/plain still get their answers', async () => {
    const port = new URL(emu.url).port;
    const res = await raw(
      emu.url,
      'POST',
      '/api/1.7/AuthService.json/GetAccessToken',
      { ...JSON_TYPE, origin: 'https://evil.example', host: `rebind.evil.example:${port}` },
      JSON.stringify({ Username: 'alice', Password: ' 00123 ' }),
    );
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ TransactionCode: null, IDWeb: 1001 });
  });
});

describe('with a token', () => {
  const TOKEN = 'shared-ci-token-8f2a';
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startApiServer({ adminToken: TOKEN });
  });
  afterAll(() => emu.close());
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  it('refuses a request without the token (401, WWW-Authenticate) and one with a wrong token', async () => {
    const missing = await raw(emu.url, 'GET', '/__admin/notifications');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="reportbo-emulator admin API"');
    expect(missing.json().error).toMatchObject({
      code: 'admin_token_missing',
      details: { setting: 'adminToken' },
    });
    expect(missing.json().error!.message).toContain('option adminToken');
    const wrong = await raw(emu.url, 'POST', '/__admin/reset', bearer('not-the-token'));
    expect(wrong.status).toBe(401);
    expect(wrong.json().error!.code).toBe('admin_token_wrong');
    const writeWithout = await raw(emu.url, 'POST', '/__admin/credentials', JSON_TYPE, credential('c'));
    expect(writeWithout.status).toBe(401);
    expect((await raw(emu.url, 'GET', '/__admin/credentials', bearer(TOKEN))).json()).toEqual({
      credentials: [],
    });
  });

  it('answers with the token; health and the dashboard page and files answer without it', async () => {
    expect(
      (
        await raw(
          emu.url,
          'POST',
          '/__admin/credentials',
          { ...JSON_TYPE, ...bearer(TOKEN) },
          credential('c'),
        )
      ).status,
    ).toBe(201);
    expect((await raw(emu.url, 'GET', '/__admin/health')).status).toBe(200);
    expect((await raw(emu.url, 'GET', '/__admin/ui')).status).toBe(200);
    expect((await raw(emu.url, 'GET', '/__admin/ui/admin-token.js')).status).toBe(200);
    expect((await raw(emu.url, 'GET', '/__admin/openapi.json')).status).toBe(401);
  });

  it('takes ?token= on the stream only (EventSource cannot send headers)', async () => {
    const stream = await raw(emu.url, 'GET', `/__admin/stream?token=${TOKEN}`);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect((await raw(emu.url, 'GET', '/__admin/stream')).status).toBe(401);
    expect((await raw(emu.url, 'GET', '/__admin/stream?token=wrong')).status).toBe(401);
    expect((await raw(emu.url, 'GET', `/__admin/config?token=${TOKEN}`)).status).toBe(401);
  });

  it('shows in /config that a token is set, never the token', async () => {
    const config = await raw(emu.url, 'GET', '/__admin/config', bearer(TOKEN));
    expect(config.json()).toMatchObject({ adminToken: true, allowedHosts: [], shutdownGraceMs: 5000 });
    expect(config.text).not.toContain(TOKEN);
  });

  it('leaves GetAccessToken alone', async () => {
    const res = await raw(
      emu.url,
      'POST',
      '/api/1.7/AuthService.json/GetAccessToken',
      JSON_TYPE,
      JSON.stringify({ Username: 'alice', Password: ' 00123 ' }),
    );
    expect(res.json()).toMatchObject({ TransactionCode: null });
  });
});

describe('serve names the settings the way they were given', () => {
  it('names REPORTBO_ADMIN_TOKEN and --allowed-hosts in the refusals', async () => {
    const { url, started: serve } = await serveCli(['--allowed-hosts', 'a.example, b.example'], {
      REPORTBO_ADMIN_TOKEN: 'env-token-123',
      REPORTBO_LOG_FORMAT: 'json',
    });
    const port = new URL(url).port;
    const missing = await raw(url, 'GET', '/__admin/config');
    expect(missing.json().error!.message).toContain(
      'the token set with environment variable REPORTBO_ADMIN_TOKEN',
    );
    const host = await raw(url, 'GET', '/__admin/config', { host: `c.example:${port}` });
    expect(host.json().error!.message).toContain('start serve with --allowed-hosts c.example');
    const config = await raw(url, 'GET', '/__admin/config', {
      host: `b.example:${port}`,
      authorization: 'Bearer env-token-123',
    });
    expect(config.json()).toMatchObject({ adminToken: true, allowedHosts: ['a.example', 'b.example'] });
    // The start line lists the settings as /config does: the token as set, never its value.
    expect(serve.output()).toContain('"adminToken":true');
    expect(serve.output()).not.toContain('env-token-123');
  });
});

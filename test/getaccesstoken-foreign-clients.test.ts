import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { post, startApiServer, TOKEN } from './helpers/api-server.js';

// Issue 42 D1, D3 and D6 through SOAP clients from Debian: python3-zeep and PHP's SoapClient, each
// built from the served WSDL. Their transports are bent only where a test says so (no SOAPAction,
// an envelope cut short, windows-1252 on the wire); the envelope is always the client's own.

const run = promisify(execFile);
// In CI they must run: without the clients they fail instead of being skipped (.ci/run installs them).
const required = process.env.REPORTBO_FOREIGN_SOAP_CLIENTS === 'required';
const PYTHON = '/usr/bin/python3';
const hasZeep =
  existsSync(PYTHON) &&
  (await run(PYTHON, ['-c', 'import zeep']).then(
    () => true,
    () => false,
  ));
const hasPhpSoap = await run('php', ['-r', 'exit(class_exists("SoapClient") ? 0 : 1);']).then(
  () => true,
  () => false,
);

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
  const res = await post(
    `${api.url}/__admin/users`,
    JSON.stringify({ username: 'euro', password: '€uro', idWeb: 4201, webDescription: 'Euro' }),
    'application/json',
  );
  expect(res.status).toBe(201);
});
afterAll(() => api.close());
beforeEach(() => api.emulator.reset());

type Mode = 'plain' | 'no-soapaction' | 'malformed' | 'cp1252';
interface ClientAnswer {
  token?: string | null;
  transactionCode?: string | null;
  error?: string;
  status?: number;
  content?: string;
  code?: string;
  message?: string;
}

const CLIENTS = {
  zeep: (wsdl: string, mode: Mode, u: string, p: string) =>
    run(PYTHON, ['test/helpers/zeep_client.py', wsdl, mode, u, p]),
  php: (wsdl: string, mode: Mode, u: string, p: string) =>
    run('php', ['test/helpers/php_soap_client.php', wsdl, mode, u, p]),
};

async function callWith(
  client: keyof typeof CLIENTS,
  mode: Mode,
  u: string,
  p: string,
): Promise<ClientAnswer> {
  const { stdout } = await CLIENTS[client](`${api.url}/api/1.7/AuthService.asmx?wsdl`, mode, u, p);
  return JSON.parse(stdout) as ClientAnswer;
}

async function journalWarnings(): Promise<string[]> {
  const { requests } = (await (await fetch(`${api.url}/__admin/requests`)).json()) as {
    requests: Array<{ warnings: string[] }>;
  };
  return requests.at(-1)?.warnings ?? [];
}

describe.each([
  ['python3-zeep', 'zeep', hasZeep || required],
  ['PHP SoapClient', 'php', hasPhpSoap || required],
] as const)('%s against AuthService.asmx', (_name, client, available) => {
  it.skipIf(!available)('gets a token as it sends the call', async () => {
    expect((await callWith(client, 'plain', 'alice', ' 00123 ')).token).toMatch(TOKEN);
    expect(await journalWarnings()).toEqual([]);
  });

  it.skipIf(!available)(
    'D1: gets a token without a SOAPAction header, and the journal names the leniency',
    async () => {
      expect((await callWith(client, 'no-soapaction', 'alice', ' 00123 ')).token).toMatch(TOKEN);
      expect(await journalWarnings()).toContain(
        'no_soapaction: no SOAPAction header: routed on the Body as ASMX does',
      );
    },
  );

  it.skipIf(!available)(
    'D3: an envelope cut short is a transport error (HTTP 400, no body), not a Fault',
    async () => {
      const answer = await callWith(client, 'malformed', 'alice', ' 00123 ');
      if (client === 'zeep') {
        expect(answer).toMatchObject({ error: 'TransportError', status: 400, content: '' });
      } else {
        // SoapClient turns an HTTP error without an envelope into a Fault of code "HTTP".
        expect(answer).toMatchObject({ error: 'SoapFault', code: 'HTTP', message: 'Bad Request' });
      }
    },
  );

  it.skipIf(!available)(
    'D6: the password "€uro" sent as windows-1252 logs in, and a wrong one still gets 1200',
    async () => {
      expect((await callWith(client, 'cp1252', 'euro', '€uro')).token).toMatch(TOKEN);
      expect(await callWith(client, 'cp1252', 'euro', '€urO')).toMatchObject({
        token: null,
        transactionCode: '1200',
      });
    },
  );
});

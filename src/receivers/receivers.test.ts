import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { WAIT_DEADLINE_MS } from '../../test/helpers/deadline.js';
import { createCertificateAuthority, createServerCertificate } from '../certs/index.js';
import { behave, type Receiver, startReceiver } from './index.js';

const open: Receiver[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
});

async function receiver(options: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
  const r = await startReceiver(options);
  open.push(r);
  return r;
}

interface Answer {
  status?: number;
  headers?: Record<string, unknown>;
  body?: string;
  error?: string;
}

/** Posts `body` and reports what came back, and the error code if the exchange broke. */
function post(url: string, body: Buffer, headers: Record<string, string> = {}, ca?: string): Promise<Answer> {
  return new Promise((resolve) => {
    const answer: Answer = {};
    const fail = (err: Error) => {
      answer.error = (err as NodeJS.ErrnoException).code ?? err.message;
      resolve(answer);
    };
    const request = url.startsWith('https') ? httpsRequest : httpRequest;
    const req = request(url, { method: 'POST', headers, agent: false, ...(ca ? { ca } : {}) }, (res) => {
      answer.status = res.statusCode!;
      answer.headers = res.headers;
      answer.body = '';
      res.on('data', (c: Buffer) => {
        answer.body += c.toString();
      });
      res.on('end', () => resolve(answer));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('programmable receiver', () => {
  it('records each request with its headers and gunzipped body, and answers 200 by default', async () => {
    const r = await receiver();
    const answer = await post(`${r.url}/hook?x=1`, gzipSync('{"a":1}'), {
      'content-encoding': 'gzip',
      authorization: 'Bearer k',
    });
    expect(answer.status).toBe(200);
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]).toMatchObject({ index: 1, method: 'POST', path: '/hook?x=1', body: '{"a":1}' });
    expect(r.requests[0]!.headers.authorization).toBe('Bearer k');
  });

  it('uses queued behaviours in order, then the default', async () => {
    const r = await receiver();
    r.enqueue(behave.status(503, 'busy'), behave.status(201));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(r.url, Buffer.from('x'))).status);
    expect(statuses).toEqual([503, 201, 200]);
  });

  it('asks the script when the queue is empty', async () => {
    const r = await receiver({ script: (req) => (req.index % 2 === 0 ? behave.status(500) : undefined) });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(r.url, Buffer.from('x'))).status);
    expect(statuses).toEqual([200, 500, 200, 500]);
  });

  it('resets the connection before headers, and after headers once they were sent', async () => {
    const r = await receiver();
    r.enqueue(behave.resetBeforeHeaders(), behave.resetAfterHeaders());
    expect(await post(r.url, Buffer.from('x'))).toEqual({ error: 'ECONNRESET' });
    const after = await post(r.url, Buffer.from('x'));
    expect(after.status).toBe(200);
    expect(after.error).toBe('ECONNRESET');
  });

  it('redirects with a Location header', async () => {
    const r = await receiver();
    r.enqueue(behave.redirect('http://127.0.0.1:1/elsewhere', 307));
    const answer = await post(r.url, Buffer.from('x'));
    expect(answer.status).toBe(307);
    expect(answer.headers?.location).toBe('http://127.0.0.1:1/elsewhere');
  });

  it('streams an endless body until the client goes away', async () => {
    const r = await receiver({ defaultBehaviour: behave.endlessBody() });
    const received = await new Promise<number>((resolve) => {
      const req = httpRequest(r.url, { method: 'POST', agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes > 1_000_000) {
            req.destroy();
            resolve(bytes);
          }
        });
      });
      req.end('x');
    });
    expect(received).toBeGreaterThan(1_000_000);
  });

  it('waits for a number of requests and says how many came when they do not', async () => {
    const r = await receiver();
    const waiting = r.waitForRequests(2, WAIT_DEADLINE_MS);
    await post(r.url, Buffer.from('a'));
    await post(r.url, Buffer.from('b'));
    expect((await waiting).map((q) => q.body)).toEqual(['a', 'b']);
    await expect(r.waitForRequests(3, 50)).rejects.toThrow('receiver got 2 of 3 requests within 50 ms');
  });

  it('serves HTTPS with a certificate signed by a test CA', async () => {
    const ca = createCertificateAuthority();
    const cert = createServerCertificate({ ca, hosts: ['127.0.0.1'] });
    const r = await receiver({ tls: cert });
    expect(r.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect((await post(r.url, Buffer.from('x'), {}, ca.certPem)).status).toBe(200);
    expect((await post(r.url, Buffer.from('x'))).error).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('breaks an HTTPS exchange on reset without bringing the receiver down', async () => {
    const ca = createCertificateAuthority();
    const r = await receiver({ tls: createServerCertificate({ ca, hosts: ['127.0.0.1'] }) });
    r.enqueue(behave.resetBeforeHeaders(), behave.resetAfterHeaders());
    const before = await post(r.url, Buffer.from('x'), {}, ca.certPem);
    expect(before.status).toBeUndefined();
    expect(before.error).toMatch(/ECONNRESET|socket hang up/);
    const after = await post(r.url, Buffer.from('x'), {}, ca.certPem);
    expect(after.status).toBe(200);
    expect(after.error).toMatch(/ECONNRESET|aborted/);
    expect((await post(r.url, Buffer.from('x'), {}, ca.certPem)).status).toBe(200);
  });

  it('closes even while a request hangs', async () => {
    const r = await startReceiver({ defaultBehaviour: behave.hang() });
    const pending = post(r.url, Buffer.from('x'));
    await r.waitForRequests(1);
    await r.close();
    expect((await pending).error).toBe('ECONNRESET');
  });
});

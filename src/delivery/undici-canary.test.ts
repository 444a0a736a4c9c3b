/**
 * The sender rests on undici's behaviour in ways undici does not promise (decision 0051): these
 * tests fail, loudly and by name, when an upgrade of undici breaks one of those assumptions. Run
 * them after changing the pinned version in package.json.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { gzipSync } from 'node:zlib';
import { type Dispatcher, errors, Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionWatch, type RequestOnConnection } from './connection-watch.js';
import { classifyError, UNDICI_CODES } from './outcome.js';
import { HttpSender } from './sender.js';

const ROOT = new URL('../../', import.meta.url);
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A raw HTTP/1.1 server answering every request with `answer(n)` (n: requests on that socket). */
async function rawServer(answer: (n: number) => string): Promise<string> {
  const server = createServer((socket) => {
    let n = 0;
    let seen = '';
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      // One complete request: its head and the Content-Length bytes after it.
      for (;;) {
        const end = seen.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/content-length: *(\d+)/i.exec(seen.slice(0, end))?.[1] ?? 0);
        if (seen.length < end + 4 + length) return;
        seen = seen.slice(end + 4 + length);
        socket.write(answer(++n));
      }
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Dispatches one POST through `pool` and answers which request on its connection it was. */
function post(pool: Pool, watch: ConnectionWatch, body: Buffer): Promise<RequestOnConnection | undefined> {
  return new Promise((resolve, reject) => {
    let seen: RequestOnConnection | undefined;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart() {
        watch.claimNextRequest((r) => {
          seen = { use: { ...r.use }, index: r.index };
        });
      },
      onResponseEnd: () => resolve(seen),
      onResponseError: (_c, err) => reject(err),
    };
    pool.dispatch(
      { method: 'POST', path: '/hook', headers: { 'content-length': String(body.length) }, body },
      handler,
    );
  });
}

describe('undici canary: what the sender assumes of undici', () => {
  it('is pinned to one exact version, and that version is the one installed', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const pinned = pkg.dependencies.undici!;
    expect(pinned, 'package.json must pin undici exactly (no ^ or ~): see decision 0051').toMatch(
      /^\d+\.\d+\.\d+$/,
    );
    const installed = JSON.parse(readFileSync(new URL('node_modules/undici/package.json', ROOT), 'utf8')) as {
      version: string;
    };
    expect(installed.version).toBe(pinned);
  });

  it('writes each request head as one string, its Buffer body apart, right after a synchronous onRequestStart', async () => {
    const origin = await rawServer(() => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    const watch = new ConnectionWatch();
    const pool = new Pool(origin, { connections: 1, pipelining: 1, connect: watch.connector({}) });
    const body = gzipSync('{"n":1}');
    try {
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await post(pool, watch, body));
      // The claim made in onRequestStart reached the head's write on the same connection, and
      // exactly one string write per request happened (the body, a Buffer, was not counted).
      expect(seen.map((r) => r?.index)).toEqual([1, 2, 3]);
      expect(seen.map((r) => r?.use.requests)).toEqual([1, 2, 3]);
    } finally {
      await pool.destroy();
    }
  });

  it('lets the watch drop an interim 100 Continue that undici alone would fail on', async () => {
    const origin = await rawServer(
      () => 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
    );
    const sender = new HttpSender({ timeoutMs: 5_000, maxSockets: 1 });
    const body = gzipSync('{}');
    try {
      const result = await sender.send({
        url: `${origin}/hook`,
        headers: { 'Content-Length': String(body.length) },
        body,
      });
      expect(result).toMatchObject({ outcome: 'http_status', statusCode: 200 });
      expect(result.message).toBe(
        'receiver answered 200 (acknowledged); 1 interim (1xx) response before it ignored',
      );
    } finally {
      sender.close();
    }
  });

  it('refuses an answer with differing Content-Length values before any handler sees its head', async () => {
    const origin = await rawServer(
      () => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\nokabc',
    );
    const pool = new Pool(origin, { connections: 1, pipelining: 1 });
    const body = gzipSync('{}');
    try {
      const heard = await new Promise<string[]>((resolve) => {
        const events: string[] = [];
        pool.dispatch(
          { method: 'POST', path: '/hook', headers: { 'content-length': String(body.length) }, body },
          {
            onRequestStart: () => {},
            onResponseStart: () => void events.push('head'),
            onResponseEnd: () => resolve([...events, 'end']),
            onResponseError: (_c, err) => resolve([...events, (err as { code?: string }).code ?? err.name]),
          },
        );
      });
      // The attempt pieces have no check of their own for this: the classification table's row
      // for UNDICI_CODES.lengthMismatch names it (src/delivery/attempt-handler.ts).
      expect(heard).toEqual([UNDICI_CODES.lengthMismatch]);
    } finally {
      await pool.destroy();
    }
  });

  it('still reports the error codes and class names the classification table reads', () => {
    expect(new errors.SocketError('other side closed').code).toBe(UNDICI_CODES.socket);
    expect(new errors.ResponseContentLengthMismatchError().code).toBe(UNDICI_CODES.lengthMismatch);
    expect(new errors.HeadersOverflowError().code).toBe(UNDICI_CODES.headersOverflow);
    expect(new errors.ConnectTimeoutError().code).toBe(UNDICI_CODES.connectTimeout);
    expect(new errors.InvalidArgumentError('x').code).toBe(UNDICI_CODES.invalidArgument);
    const parser = new errors.HTTPParserError(
      'Response does not match the HTTP/1.1 protocol (Expected HTTP/)',
    );
    expect(parser.name).toBe('HTTPParserError');
    expect(classifyError(parser, 'headers', 'r.test').message).toBe(
      'invalid HTTP response before the response headers: Parse Error: Expected HTTP/ (HPE_INVALID_CONSTANT)',
    );
  });
});

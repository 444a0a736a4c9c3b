/**
 * Each piece of an attempt alone (attempt-handler.ts composes them): the piece between undici (a
 * real Pool or Client on a real loopback socket) and a handler that writes down what it hears.
 */
import { gzipSync } from 'node:zlib';
import { Client, type Dispatcher, Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { WAIT_DEADLINE_MS } from '../../../test/helpers/deadline.js';
import { OK_200, rawReceiver } from '../../../test/helpers/raw-receiver.js';
import { ConnectionWatch } from '../connection-watch.js';
import type { SendResult } from '../outcome.js';
import { KeptBody, keptHeaders, RESPONSE_BODY_CAP_BYTES, RESPONSE_HEADERS_CAP_BYTES } from './caps.js';
import { ConnectionClaim } from './connection-claim.js';
import { Deadline } from './deadline.js';
import { FreshConnectionRetry } from './fresh-connection-retry.js';
import { type AttemptContext, type AttemptPiece, AttemptStopped, Forward, type Seen } from './piece.js';
import { RESPONSE_READ_LIMIT_BYTES, ReadLimit } from './read-limit.js';
import { AttemptRecord } from './record.js';

const body = gzipSync('{"n":1}');
const post: Dispatcher.DispatchOptions = {
  method: 'POST',
  path: '/hook',
  headers: { 'content-length': String(body.length) },
  body,
};

/** What the last piece heard, in order; `ended` settles on the response's end or error. */
class Heard implements AttemptPiece {
  readonly events: string[] = [];
  readonly contexts: AttemptContext[] = [];
  bodyBytes = 0;
  error: Error | undefined;
  readonly ended: Promise<void>;
  #end!: () => void;

  constructor() {
    this.ended = new Promise((resolve) => {
      this.#end = resolve;
    });
  }

  onRequestStart(_c: Dispatcher.DispatchController, context: AttemptContext): void {
    this.events.push('start');
    this.contexts.push(context);
  }
  onRequestRetry(firstTry: string): void {
    this.events.push(`retry: ${firstTry}`);
  }
  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number): void {
    this.events.push(`status ${statusCode}`);
  }
  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bodyBytes += chunk.length;
  }
  onResponseEnd(): void {
    this.events.push('end');
    this.#end();
  }
  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    this.events.push('error');
    this.error = error;
    this.#end();
  }
}

const closing: Array<{ destroy(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((d) => d.destroy()));
});

function pool(url: string, watch = new ConnectionWatch()): Pool {
  const p = new Pool(new URL(url).origin, {
    connections: 1,
    pipelining: 1,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: watch.connector({ timeout: WAIT_DEADLINE_MS }),
  });
  closing.push(p);
  return p;
}

/** The message a stop gives when the record saw `seen`. */
function said(error: Error | undefined, seen: Seen = { phase: 'body', statusCode: 200, keptBytes: 7 }) {
  expect(error).toBeInstanceOf(AttemptStopped);
  return (error as AttemptStopped).describe(seen);
}

describe('caps: what an attempt keeps of an answer', () => {
  it('keeps the first RESPONSE_BODY_CAP_BYTES of a body arriving in chunks, whatever their sizes', () => {
    const kept = new KeptBody();
    const text = 'abcdefghij'.repeat(1_000);
    for (let at = 0; at < text.length; at += 777) kept.push(Buffer.from(text.slice(at, at + 777)));
    expect(kept.bytes).toBe(RESPONSE_BODY_CAP_BYTES);
    expect(kept.text()).toBe(text.slice(0, RESPONSE_BODY_CAP_BYTES));
    expect(new KeptBody().text()).toBe('');
  });

  it('joins repeated headers and stops before the header that crosses RESPONSE_HEADERS_CAP_BYTES', () => {
    const big = 'v'.repeat(RESPONSE_HEADERS_CAP_BYTES);
    expect(keptHeaders({ a: ['1', '2'], b: undefined, c: '3', d: big, e: '4' })).toEqual({
      a: '1, 2',
      c: '3',
    });
  });
});

describe('ReadLimit', () => {
  it('passes on the chunk that crosses the limit, then aborts and closes the connection', async () => {
    let closed = false;
    const r = await rawReceiver({
      answer: (socket) => {
        socket.on('close', () => {
          closed = true;
        });
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
        const chunk = Buffer.alloc(8192, 'x');
        const more = () => {
          while (!socket.destroyed && socket.write(`2000\r\n${chunk}\r\n`)) {}
          if (!socket.destroyed) socket.once('drain', more);
        };
        more();
      },
    });
    const heard = new Heard();
    pool(r.url).dispatch(post, new ReadLimit(heard));
    await heard.ended;
    expect(heard.events).toEqual(['start', 'status 200', 'error']);
    expect(heard.bodyBytes).toBeGreaterThan(RESPONSE_READ_LIMIT_BYTES);
    expect((heard.error as AttemptStopped).outcome).toBe('invalid_response');
    expect((heard.error as AttemptStopped).keepsBody).toBe(true);
    expect(said(heard.error)).toBe(
      `response body longer than ${RESPONSE_READ_LIMIT_BYTES} bytes (status 200): stopped reading and closed the connection; the first 7 bytes are kept`,
    );
    await expect.poll(() => closed).toBe(true);
  });

  it('lets a body of exactly the limit end normally', async () => {
    const r = await rawReceiver({
      answer: (socket) =>
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Length: ${RESPONSE_READ_LIMIT_BYTES}\r\n\r\n${'y'.repeat(RESPONSE_READ_LIMIT_BYTES)}`,
        ),
    });
    const heard = new Heard();
    pool(r.url).dispatch(post, new ReadLimit(heard));
    await heard.ended;
    expect(heard.events).toEqual(['start', 'status 200', 'end']);
    expect(heard.bodyBytes).toBe(RESPONSE_READ_LIMIT_BYTES);
  });
});

describe('Deadline', () => {
  it('ends a request whose answer never comes as timeout, destroying its connection', async () => {
    let closed = false;
    const r = await rawReceiver({
      answer: (socket) =>
        socket.on('close', () => {
          closed = true;
        }),
    });
    const heard = new Heard();
    pool(r.url).dispatch(post, new Deadline(heard, 200));
    await heard.ended;
    expect(heard.events).toEqual(['start', 'error']);
    expect((heard.error as AttemptStopped).outcome).toBe('timeout');
    expect(said(heard.error, { phase: 'headers', statusCode: undefined, keptBytes: 0 })).toBe(
      'no complete response within 200 ms (waiting for the response headers)',
    );
    expect(said(heard.error, { phase: 'body', statusCode: 200, keptBytes: 3 })).toBe(
      'no complete response within 200 ms (reading the response body (status 200, 3 bytes kept))',
    );
    await expect.poll(() => closed).toBe(true);
  });

  it('ends a request still waiting for a connection, and never sends it once one is free', async () => {
    const held: Array<() => void> = [];
    const r = await rawReceiver({ answer: (socket) => held.push(() => socket.write(OK_200)) });
    const p = pool(r.url);
    const first = new Heard();
    p.dispatch(post, first);
    await expect.poll(() => r.requests.length).toBe(1);
    const queued = new Heard();
    p.dispatch(post, new Deadline(queued, 100));
    await queued.ended;
    expect(queued.events).toEqual(['error']);
    expect((queued.error as AttemptStopped).outcome).toBe('timeout');
    // The connection comes free: the late request is aborted before it is written.
    held[0]!();
    await first.ended;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.requests).toHaveLength(1);
    expect(queued.events).toEqual(['error']);
  });

  it('passes nothing on after the end it passed on', async () => {
    const r = await rawReceiver({ answer: (socket) => socket.write(OK_200) });
    const heard = new Heard();
    const deadline = new Deadline(heard, 5_000);
    pool(r.url).dispatch(post, deadline);
    await heard.ended;
    deadline.onResponseError(undefined as never, new Error('late'));
    deadline.onRequestRetry('late');
    expect(heard.events).toEqual(['start', 'status 200', 'end']);
  });
});

describe('ConnectionClaim', () => {
  it('tells which request on which connection each try is, and the interim responses dropped', async () => {
    const r = await rawReceiver({
      answer: (socket, request) =>
        socket.write(
          request.indexOnConnection === 2
            ? `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n${OK_200}`
            : OK_200,
        ),
    });
    const watch = new ConnectionWatch();
    const p = pool(r.url, watch);
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const heard = new Heard();
      p.dispatch(post, new ConnectionClaim(heard, watch));
      await heard.ended;
      const { connection } = heard.contexts[0]!;
      seen.push({ index: connection?.index, interim: connection?.use.interim });
      // Let undici mark the connection free before the next request.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen).toEqual([
      { index: 1, interim: 0 },
      { index: 2, interim: 2 },
      { index: 3, interim: 0 },
    ]);
    expect(r.connections).toBe(1);
  });
});

describe('FreshConnectionRetry', () => {
  /** A piece chain as the sender builds it, minus the deadline: claim → retry → heard. */
  function retrying(url: string, watch: ConnectionWatch, heard: Heard) {
    const origin = new URL(url).origin;
    const claim = (next: AttemptPiece) => new ConnectionClaim(next, watch);
    const piece = new FreshConnectionRetry(heard, '127.0.0.1', (again) => {
      const client = new Client(origin, { connect: watch.connector({ timeout: WAIT_DEADLINE_MS }) });
      closing.push(client);
      client.dispatch({ ...post, reset: true }, claim(again));
    });
    return claim(piece);
  }

  /** Two requests in turn on one pooled connection, each through the chain; what the second heard. */
  async function secondOnOneConnection(url: string): Promise<Heard> {
    const watch = new ConnectionWatch();
    const p = pool(url, watch);
    const first = new Heard();
    p.dispatch(post, retrying(url, watch, first));
    await first.ended;
    await new Promise((resolve) => setImmediate(resolve));
    const second = new Heard();
    p.dispatch(post, retrying(url, watch, second));
    await second.ended;
    return second;
  }

  it('sends a request lost on a reused connection once more on a new one, telling why', async () => {
    const r = await rawReceiver({
      arrived: ({ indexOnConnection }) => (indexOnConnection > 1 ? 'close' : undefined),
      answer: (socket) => socket.write(OK_200),
    });
    const second = await secondOnOneConnection(r.url);
    expect(second.events).toEqual([
      'start',
      'retry: connection reset before the response headers (ECONNRESET)',
      'start',
      'status 200',
      'end',
    ]);
    expect(r.requests.map((q) => [q.connection, q.indexOnConnection])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('never sends again a first request on a fresh connection, nor a second retry', async () => {
    const r = await rawReceiver({ arrived: () => 'reset', answer: () => {} });
    const watch = new ConnectionWatch();
    const heard = new Heard();
    pool(r.url, watch).dispatch(post, retrying(r.url, watch, heard));
    await heard.ended;
    expect(heard.events).toEqual(['start', 'error']);
    expect(r.connections).toBe(1);
  });

  it('never sends again a request whose answer had begun', async () => {
    const r = await rawReceiver({
      answer: (socket, request) => {
        if (request.indexOnConnection === 1) socket.write(OK_200);
        else socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort');
      },
    });
    const second = await secondOnOneConnection(r.url);
    expect(second.events).toEqual(['start', 'status 200', 'error']);
    expect(r.requests).toHaveLength(2);
  });
});

describe('AttemptRecord', () => {
  function record(): { record: AttemptRecord; result: Promise<SendResult> } {
    let resolve!: (r: SendResult) => void;
    const result = new Promise<SendResult>((r) => {
      resolve = r;
    });
    return { record: new AttemptRecord('127.0.0.1', resolve), result };
  }

  it('turns a complete answer into http_status with its capped body, headers and redirect', async () => {
    const r = await rawReceiver({
      answer: (socket) =>
        socket.write(
          `HTTP/1.1 307 Temporary Redirect\r\nLocation: http://elsewhere.test/x\r\nContent-Length: 5000\r\n\r\n${'z'.repeat(5000)}`,
        ),
    });
    const { record: rec, result } = record();
    pool(r.url).dispatch(post, rec);
    const done = await result;
    expect(done).toMatchObject({
      outcome: 'http_status',
      statusCode: 307,
      message:
        'receiver answered 307; only 200 acknowledges; redirect to http://elsewhere.test/x not followed',
      responseHeaders: { location: 'http://elsewhere.test/x', 'content-length': '5000' },
    });
    expect(done.responseBody).toBe('z'.repeat(RESPONSE_BODY_CAP_BYTES));
  });

  it("gives a piece's stop its own outcome and message, and names both tries of a retried attempt", () => {
    const stopped = record();
    stopped.record.onResponseError(
      undefined as never,
      new AttemptStopped('timeout', (seen) => `stopped ${seen.phase}`),
    );
    const retried = record();
    retried.record.onRequestRetry('first failure');
    const error = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    retried.record.onResponseError(undefined as never, error);
    return Promise.all([
      expect(stopped.result).resolves.toMatchObject({ outcome: 'timeout', message: 'stopped connect' }),
      expect(retried.result).resolves.toMatchObject({
        outcome: 'reset',
        message:
          'connection reset while connecting (ECONNRESET) (on a new connection: the first try, on a reused connection, failed before any answer: first failure)',
      }),
    ]);
  });
});

describe('Forward', () => {
  it('hands every callback on unchanged', async () => {
    const r = await rawReceiver({ answer: (socket) => socket.write(OK_200) });
    const heard = new Heard();
    pool(r.url).dispatch(post, new Forward(new Forward(heard)));
    await heard.ended;
    expect(heard.events).toEqual(['start', 'status 200', 'end']);
    expect(heard.bodyBytes).toBe(2);
  });
});

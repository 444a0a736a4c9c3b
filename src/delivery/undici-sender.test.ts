import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { receiver } from '../../test/helpers/receiver.js';
import { HttpSender } from './sender.js';

const body = gzipSync('{"hello":"world"}');
const headers = { 'User-Agent': 'Service-ReportBO', 'Content-Length': String(body.length) };
const servers: Server[] = [];

/** A TCP server that answers every request's first bytes with `reply` (raw), then maybe closes. */
async function rawServer(reply: string, close: boolean): Promise<string> {
  const server = createServer((socket: Socket) => {
    socket.once('data', () => {
      socket.write(reply);
      if (close) socket.end();
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}/hook`;
}

afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

describe('HTTP sender on undici: failures keep the node:http outcomes and messages', () => {
  it('reports a non-HTTP answer as invalid_response with the parser reason', async () => {
    const url = await rawServer('hello there\r\n\r\n', false);
    const s = new HttpSender({ timeoutMs: 2_000, maxSockets: 2 });
    const result = await s.send({ url, headers, body });
    s.close();
    expect(result.outcome).toBe('invalid_response');
    expect(result.message).toMatch(
      /^invalid HTTP response before the response headers: Parse Error: .+ \(HPE_/,
    );
  });

  it('reports a connection closed before the headers as reset (ECONNRESET)', async () => {
    const url = await rawServer('', true);
    const s = new HttpSender({ timeoutMs: 2_000, maxSockets: 2 });
    const result = await s.send({ url, headers, body });
    s.close();
    expect(result).toMatchObject({ outcome: 'reset' });
    expect(result.message).toBe('connection reset before the response headers (ECONNRESET)');
  });

  it('reports a body cut short by a close as an invalid response, with the status', async () => {
    const url = await rawServer('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort', true);
    const s = new HttpSender({ timeoutMs: 2_000, maxSockets: 2 });
    const result = await s.send({ url, headers, body });
    s.close();
    expect(result).toMatchObject({ outcome: 'invalid_response', statusCode: 200 });
    expect(result.message).toBe(
      'invalid HTTP response: the receiver closed the connection after 5 body bytes of the 100 its Content-Length promised, before the body was complete (status 200)',
    );
  });

  it('sends only the spec headers plus host and connection', async () => {
    const r = await receiver();
    const s = new HttpSender({ timeoutMs: 2_000, maxSockets: 2 });
    await s.send({ url: `${r.url}/hook`, headers, body });
    s.close();
    expect(Object.keys(r.requests[0]!.headers).sort()).toEqual([
      'connection',
      'content-length',
      'host',
      'user-agent',
    ]);
    expect(r.requests[0]!.headers.connection).toBe('keep-alive');
  });

  it('keeps at most maxSockets connections across destinations', async () => {
    const a = createHttpServer((req, res) => req.resume().on('end', () => res.end()));
    await new Promise<void>((resolve) => a.listen(0, '127.0.0.1', resolve));
    const aUrl = `http://127.0.0.1:${(a.address() as { port: number }).port}/hook`;
    const openToA = () => new Promise<number>((resolve) => a.getConnections((_e, n) => resolve(n)));
    const b = await receiver();
    const s = new HttpSender({ timeoutMs: 2_000, maxSockets: 1 });
    const first = await s.send({ url: aUrl, headers, body });
    expect(await openToA()).toBe(1);
    // The idle connection to `a` is closed to make room for `b`, not kept beside it.
    const second = await s.send({ url: b.url, headers, body });
    const again = await s.send({ url: b.url, headers, body });
    s.close();
    a.close();
    expect([first.statusCode, second.statusCode, again.statusCode]).toEqual([200, 200, 200]);
    expect(b.requests[0]!.remotePort).toBe(b.requests[1]!.remotePort);
    await expect.poll(openToA).toBe(0);
  });
});

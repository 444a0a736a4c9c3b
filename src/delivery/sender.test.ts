import { setTimeout as sleep } from 'node:timers/promises';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { WAIT_DEADLINE_MS } from '../../test/helpers/deadline.js';
import { start } from '../../test/helpers/processes.js';
import { behave, receiver } from '../../test/helpers/receiver.js';
import { testCa, tlsReceiver } from '../../test/helpers/tls.js';
import { HttpSender, RESPONSE_BODY_CAP_BYTES } from './sender.js';

const body = gzipSync('{"hello":"world"}');
const headers = {
  'User-Agent': 'Service-ReportBO',
  'Content-Type': 'application/json',
  'Content-Encoding': 'gzip',
  'Content-Length': String(body.length),
};

function sender(timeoutMs = 2_000): HttpSender {
  return new HttpSender({ timeoutMs, maxSockets: 4, extraCaPem: [testCa().certPem] });
}

describe('HTTP sender', () => {
  it('posts the exact headers and body and reports a 200 as http_status 200', async () => {
    const r = await receiver();
    const s = sender();
    const result = await s.send({ url: `${r.url}/hook`, headers, body });
    s.close();
    expect(result).toMatchObject({ outcome: 'http_status', statusCode: 200, responseBody: '' });
    const [req] = r.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/hook');
    expect(req!.body).toBe('{"hello":"world"}');
    expect(req!.headers['user-agent']).toBe('Service-ReportBO');
    expect(req!.headers['content-length']).toBe(String(body.length));
    expect(req!.headers['transfer-encoding']).toBeUndefined();
  });

  it('reuses one keep-alive connection for consecutive attempts', async () => {
    const r = await receiver();
    const s = sender();
    await s.send({ url: r.url, headers, body });
    await s.send({ url: r.url, headers, body });
    s.close();
    expect(r.requests[0]!.remotePort).toBe(r.requests[1]!.remotePort);
  });

  it('keeps only the first 4 KiB of a response body', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500, 'e'.repeat(10_000)) });
    const s = sender();
    const result = await s.send({ url: r.url, headers, body });
    s.close();
    expect(result.statusCode).toBe(500);
    expect(result.responseBody).toHaveLength(RESPONSE_BODY_CAP_BYTES);
    expect(result.message).toBe('receiver answered 500; only 200 acknowledges');
  });

  it('does not follow a redirect and names its target', async () => {
    const target = await receiver();
    const r = await receiver({ defaultBehaviour: behave.redirect(`${target.url}/moved`, 307) });
    const s = sender();
    const result = await s.send({ url: r.url, headers, body });
    s.close();
    expect(result).toMatchObject({ outcome: 'http_status', statusCode: 307 });
    expect(result.message).toContain(`redirect to ${target.url}/moved not followed`);
    expect(target.requests).toHaveLength(0);
  });

  it('times out a hanging receiver after the configured time', async () => {
    const r = await receiver({ defaultBehaviour: behave.hang() });
    const s = sender(300);
    const result = await s.send({ url: r.url, headers, body });
    s.close();
    expect(result.outcome).toBe('timeout');
    expect(result.message).toBe('no complete response within 300 ms (waiting for the response headers)');
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('a cancelled attempt ends at once as interrupted, naming why, and the connection serves no late answer', async () => {
    const r = await receiver({ defaultBehaviour: behave.hang() });
    const s = sender(600_000);
    const cancel = new AbortController();
    const pending = s.send({ url: r.url, headers, body }, cancel.signal);
    await r.waitForRequests(1, WAIT_DEADLINE_MS);
    cancel.abort(new Error('the verify run no longer needs it'));
    const result = await pending;
    expect(result).toMatchObject({
      outcome: 'interrupted',
      message:
        'cancelled by the emulator (waiting for the response headers): the verify run no longer needs it',
    });
    // The sender goes on: the next attempt gets a new connection and its own answer.
    r.setDefault(behave.status(200));
    const next = await s.send({ url: r.url, headers, body });
    s.close();
    expect(next).toMatchObject({ outcome: 'http_status', statusCode: 200 });
    expect(r.requests[1]!.remotePort).not.toBe(r.requests[0]!.remotePort);
  });

  it('an attempt whose signal was cancelled before it started is never sent', async () => {
    const r = await receiver();
    const s = sender(600_000);
    const result = await s.send({ url: r.url, headers, body }, AbortSignal.abort('the budget was spent'));
    const after = await s.send({ url: r.url, headers, body });
    s.close();
    expect(result).toMatchObject({
      outcome: 'interrupted',
      message: 'cancelled by the emulator (while connecting): the budget was spent',
    });
    expect(after.statusCode).toBe(200);
    expect(r.requests).toHaveLength(1);
  });

  it('stops reading an endless body past the read limit, with the status it had received', async () => {
    const r = await receiver({ defaultBehaviour: behave.endlessBody(200) });
    const s = sender(600_000);
    const result = await s.send({ url: r.url, headers, body });
    s.close();
    expect(result).toMatchObject({ outcome: 'invalid_response', statusCode: 200 });
    expect(result.message).toBe(
      'response body longer than 65536 bytes (status 200): stopped reading and closed the connection; the first 4096 bytes are kept',
    );
    expect(result.responseBody).toHaveLength(4096);
  });

  it('reports resets before and after the headers', async () => {
    const r = await receiver();
    r.enqueue(behave.resetBeforeHeaders(), behave.resetAfterHeaders(200));
    const s = sender();
    const before = await s.send({ url: r.url, headers, body });
    const after = await s.send({ url: r.url, headers, body });
    s.close();
    expect(before).toMatchObject({ outcome: 'reset' });
    expect(before.statusCode).toBeUndefined();
    expect(after).toMatchObject({ outcome: 'reset', statusCode: 200 });
    expect(after.message).toContain('after the response headers (status 200)');
  });

  it('reports a refused connection and a failed DNS lookup', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    // The lookup goes to the machine's resolver, which may be slow under load: room for it.
    const s = sender(20_000);
    const refused = await s.send({ url, headers, body });
    const dns = await s.send({ url: 'https://receiver.invalid/hook', headers, body });
    s.close();
    expect(refused.outcome).toBe('connect_refused');
    expect(refused.message).toContain('connection refused');
    expect(dns.outcome).toBe('dns_error');
    expect(dns.message).toContain('receiver.invalid');
  });

  it.each([
    ['self-signed', /self-signed certificate/],
    ['expired', /certificate expired/],
    ['wrong-host', /hostname mismatch/],
    ['tls1.0', /protocol version refused/],
  ] as const)('refuses a %s receiver as tls_error naming the cause', async (kind, cause) => {
    const r = await tlsReceiver(kind);
    const s = sender();
    const result = await s.send({ url: r.url, headers, body });
    s.close();
    expect(result.message).toMatch(cause);
    expect(result.outcome).toBe('tls_error');
    expect(r.requests).toHaveLength(0);
  });

  it('delivers over TLS to a receiver whose CA was trusted', async () => {
    const r = await tlsReceiver('trusted');
    const s = sender();
    const result = await s.send({ url: r.url, headers, body });
    s.close();
    expect(result).toMatchObject({ outcome: 'http_status', statusCode: 200 });
    expect(r.requests[0]!.body).toBe('{"hello":"world"}');
  });

  it('makes one TLS context for all its connections: none per connection', async () => {
    // Given the CAs alone, tls.connect would make a context per connection, parsing the ~140 system
    // roots again each time (decision 0271). Three attempts at once need three connections.
    const r = await tlsReceiver('trusted', { defaultBehaviour: behave.slow(200) });
    const contexts = vi.spyOn(tls, 'createSecureContext');
    const s = sender();
    try {
      const results = await Promise.all([1, 2, 3].map(() => s.send({ url: r.url, headers, body })));
      expect(results.map((x) => x.statusCode)).toEqual([200, 200, 200]);
      expect(new Set(r.requests.map((q) => q.remotePort)).size).toBe(3);
      expect(contexts).toHaveBeenCalledTimes(1);
    } finally {
      s.close();
      contexts.mockRestore();
    }
  });

  it('ends the connects still in progress when it closes: nothing waits on a full listen backlog after', async () => {
    // A listener that never accepts, with a backlog of one: later connects wait in the kernel's SYN
    // retransmissions (decision 0260). The sender's close must end them, not leave them to time out.
    const py = start('python3', [
      '-c',
      "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen(0)\nprint('port',s.getsockname()[1],flush=True)\ntime.sleep(600)",
    ]);
    const port = (await py.waitFor(/port (\d+)/))[1];
    const connecting = () => process.getActiveResourcesInfo().filter((r) => r === 'ConnectWrap').length;
    const before = connecting();
    const s = sender(2 * WAIT_DEADLINE_MS);
    const stop = new AbortController();
    const sends = [1, 2, 3].map(() =>
      s.send({ url: `http://127.0.0.1:${port}/`, headers, body }, stop.signal),
    );
    while (connecting() < before + 2) await sleep(10);
    stop.abort(new Error('the test is done with them'));
    expect((await Promise.all(sends)).map((r) => r.outcome)).toEqual([
      'interrupted',
      'interrupted',
      'interrupted',
    ]);
    s.close();
    // A destroyed socket lets go of its connect on a later turn of the loop; left alone it would wait
    // for the next SYN retransmission, up to the sender's timeout.
    const deadline = Date.now() + WAIT_DEADLINE_MS;
    while (connecting() > before && Date.now() < deadline) await sleep(5);
    expect(connecting()).toBe(before);
  });
});

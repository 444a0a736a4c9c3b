import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorError } from '../errors.js';
import { adminBodyLimits, checkedBody, MAX_ADMIN_BODY_BYTES } from './body-limits.js';

/** The guard in front of a route that answers the text it was handed. */
function app(): Hono {
  const app = new Hono();
  app.use('*', adminBodyLimits());
  app.all('*', (c) => c.json({ text: checkedBody(c) ?? null }));
  app.onError((err, c) =>
    c.json(
      { code: err instanceof EmulatorError ? err.code : 'other' },
      err instanceof EmulatorError ? (err.status as 400) : 500,
    ),
  );
  return app;
}

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** The same app served over a socket, as the emulator serves it (the body read from the socket). */
async function served(): Promise<(init: RequestInit) => Promise<Response>> {
  const server = createAdaptorServer({ fetch: app().fetch });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return (init) => fetch(`http://127.0.0.1:${port}/x`, init);
}

/** A body sent in 1 MiB chunks without a Content-Length, `total` bytes of spaces. */
function chunked(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(1 << 20, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
}

const ways = {
  'over a socket': served,
  'through fetch (app.request)': async () => (init: RequestInit) =>
    Promise.resolve(app().request('/x', init)),
};

describe.each(Object.entries(ways))('admin body limits %s', (_way, make) => {
  it('hands the route the checked text, and none for a GET', async () => {
    const send = await make();
    const posted = await send({
      method: 'POST',
      body: '{"a":"é"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await posted.json()).toEqual({ text: '{"a":"é"}' });
    expect(await (await send({ method: 'GET' })).json()).toEqual({ text: null });
  });

  it('refuses a chunked body past 10 MiB, bad UTF-8 and too deep a nesting', async () => {
    const send = await make();
    const big = await send({
      method: 'POST',
      body: chunked(MAX_ADMIN_BODY_BYTES + 1),
      duplex: 'half',
    } as RequestInit);
    expect([big.status, await big.json()]).toEqual([413, { code: 'body_too_large' }]);
    const bad = await send({ method: 'POST', body: new Uint8Array([0x7b, 0xff, 0x7d]) });
    expect([bad.status, await bad.json()]).toEqual([400, { code: 'invalid_utf8' }]);
    const deep = await send({ method: 'PUT', body: `${'['.repeat(65)}${']'.repeat(65)}` });
    expect([deep.status, await deep.json()]).toEqual([400, { code: 'too_deep' }]);
    const fine = await send({ method: 'PUT', body: `${'['.repeat(64)}${']'.repeat(64)}` });
    expect(fine.status).toBe(200);
  });
});

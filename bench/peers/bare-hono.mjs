// The ceiling on this runtime: a bare Hono app on @hono/node-server (the emulator's own stack)
// answering the same static 1.7 GetAccessToken bodies as the peers' stubs, with no parsing, no
// lookup, no journal. Usage: node bench/peers/bare-hono.mjs <port>
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

// Compact, byte for byte what the WireMock and Mockoon stubs answer.
const json = JSON.stringify(
  JSON.parse(readFileSync(new URL('./bodies/get-access-token-1.7.json', import.meta.url), 'utf8')),
);
const soap = readFileSync(new URL('./bodies/get-access-token-1.7.soap11.xml', import.meta.url), 'utf8');
const headers = {
  'X-API-User-IDWeb': '1001',
  'X-API-User-WebDescription': 'Bench Agency',
  'X-API-Version': '1.7.0.0',
};

const app = new Hono();
app.post('/api/1.7/AuthService.json/GetAccessToken', (c) =>
  c.body(json, 200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }),
);
app.post('/api/1.7/AuthService.asmx', (c) =>
  c.body(soap, 200, { ...headers, 'Content-Type': 'text/xml; charset=utf-8' }),
);

const port = Number(process.argv[2] ?? 0);
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`bare-hono listening on http://127.0.0.1:${info.port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));

#!/usr/bin/env node
/**
 * HEALTHCHECK of the sample receiver image: asks GET /health at the URL server.js wrote to
 * RECEIVER_URL_FILE once it listened, whatever port it was given. It checks that the receiver
 * serves HTTPS, not that this container trusts the certificate (the emulator checks that on every
 * delivery), so it needs no NODE_EXTRA_CA_CERTS. Exit 0 healthy, 1 not (yet).
 */
import { readFileSync } from 'node:fs';
import { get } from 'node:https';

const file = process.env.RECEIVER_URL_FILE;
let url;
try {
  url = readFileSync(file ?? '', 'utf8').trim();
} catch {
  console.error(`healthcheck: no listening URL in ${file ?? '(RECEIVER_URL_FILE is not set)'} yet`);
  process.exit(1);
}
const req = get(`${url}/health`, { rejectUnauthorized: false, timeout: 2_500 }, (res) => {
  res.resume();
  if (res.statusCode !== 200) console.error(`healthcheck: ${url}/health answered ${res.statusCode}`);
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('no answer within 2500 ms')));
req.on('error', (err) => {
  console.error(`healthcheck: ${url}/health: ${err.code ?? err.message}`);
  process.exit(1);
});

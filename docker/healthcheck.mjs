#!/usr/bin/env node
/**
 * HEALTHCHECK of the emulator image: asks /__admin/health at the URL `serve` wrote to
 * REPORTBO_URL_FILE once it listened, so the check follows the port however it was given
 * (`serve --port 9090`, REPORTBO_PORT, PORT, a config file). Exit 0 healthy, 1 not (yet).
 */
import { readFileSync } from 'node:fs';

const file = process.env.REPORTBO_URL_FILE;
let url;
try {
  url = readFileSync(file ?? '', 'utf8').trim();
} catch {
  console.error(`healthcheck: no listening URL in ${file ?? '(REPORTBO_URL_FILE is not set)'} yet`);
  process.exit(1);
}
try {
  const res = await fetch(`${url}/__admin/health`, { signal: AbortSignal.timeout(2_500) });
  if (res.status !== 200) console.error(`healthcheck: ${url}/__admin/health answered ${res.status}`);
  process.exit(res.status === 200 ? 0 : 1);
} catch (err) {
  console.error(`healthcheck: ${url}/__admin/health: ${err.cause?.code ?? err.message}`);
  process.exit(1);
}

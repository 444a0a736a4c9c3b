/**
 * Signals through the real CLI (issue 31 §5): a second signal ends a stop at once, whichever signal
 * came first; a file past `ulimit -f` is an unwritable data dir, not a SIGXFSZ death (exit 153).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminCall } from './helpers/admin-call.js';
import { BIN } from './helpers/cli.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { serveCli, start } from './helpers/processes.js';
import { behave, receiver } from './helpers/receiver.js';

const post = (url: string, path: string, body: unknown) => adminCall({ url }, 'POST', path, body);

describe('a second signal ends the process at once', () => {
  it('SIGINT after SIGTERM ends it without waiting for the shutdown grace (exit 130)', async () => {
    const hang = await receiver({ defaultBehaviour: behave.hang() });
    const { url, started: serve } = await serveCli([
      '--clock',
      'manual',
      '--allow-http',
      '--log-format',
      'json',
      '--shutdown-grace-ms',
      '600000',
    ]);
    expect((await post(url, '/credentials', { id: 'c', apiKey: 'k', url: `${hang.url}/hook` })).status).toBe(
      201,
    );
    expect((await post(url, '/events', { type: 'Issue' })).status).toBe(202);
    await hang.waitForRequests(1, WAIT_DEADLINE_MS); // an attempt in flight: the stop waits for it
    serve.child.kill('SIGTERM');
    await serve.waitFor(/shutting down/);
    serve.child.kill('SIGINT');
    expect(await serve.exited()).toBe(130);
    expect(serve.output()).toContain('second signal: stopping at once');
  });
});

describe('a file past ulimit -f', () => {
  it('ends as an unwritable data dir (health degraded), and SIGTERM then exits 0, never 153', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reportbo-fsize-'));
    // ulimit -f counts 1024-byte blocks: 256 KiB for every file the process writes.
    const serve = start('bash', [
      '-c',
      `ulimit -f 256 && exec "${process.execPath}" "${BIN}" serve --port 0 --clock manual --log-format json --data-dir "${join(dir, 'data')}"`,
    ]);
    const url = (await serve.waitFor(/listening on (http:\/\/[\d.:]+)/))[1]!;
    let status = 0;
    for (let i = 0; i < 2_000 && status < 500; i++)
      status = (await post(url, '/events', { type: 'Issue' })).status;
    expect(status).toBe(503);
    const health = (await (await fetch(`${url}/__admin/health`)).json()) as {
      status: string;
      reason?: string;
    };
    expect(JSON.stringify(health)).toMatch(/degraded/);
    expect(JSON.stringify(health)).toMatch(/EFBIG|too large/i);
    serve.child.kill('SIGTERM');
    expect(await serve.exited()).toBe(0);
    expect(serve.child.signalCode).toBeNull();
  });
});

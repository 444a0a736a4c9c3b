/**
 * The tests' free port (test/helpers/ports.ts) comes from below the kernel's ephemeral range: a
 * port from that range, free when chosen, was taken by another file's `listen(0)` or outgoing
 * connection before a tour step started on it (readme-tour, port already in use).
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralLow, freePort } from './helpers/ports.js';

describe('freePort', () => {
  it('answers ports below the ephemeral range that can be listened on', async () => {
    const low = ephemeralLow();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(low);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    expect((server.address() as { port: number }).port).toBe(ports[0]);
    await new Promise((resolve) => server.close(resolve));
  });
});

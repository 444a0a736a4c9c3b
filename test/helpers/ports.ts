import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the kernel's ephemeral ports start (Linux): `listen(0)` and outgoing connections take from there on. */
export function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32768; // Linux's default, and close to the IANA range's 49152 elsewhere
  }
}

/** Answers the port once something could listen on it (port 0: the kernel's choice), or undefined. */
function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: got } = server.address() as { port: number };
      server.close(() => resolve(got));
    });
  });
}

/**
 * A TCP port free on loopback right now, for what cannot listen on port 0 itself (a container's
 * published port, a URL written into a file before its server starts). Drawn below the ephemeral
 * range: a port from it can be taken meanwhile by any `listen(0)` or outgoing connection of the
 * other test files (a tour step waited seconds for its port and found it in use). Prefer port 0
 * wherever the code under test can report the port it got.
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = ephemeralLow();
  for (let tries = 0; high - low >= 1000 && tries < 50; tries++) {
    const got = await tryListen(low + Math.floor(Math.random() * (high - low)));
    if (got !== undefined) return got;
  }
  const got = await tryListen(0);
  if (got === undefined) throw new Error('no free port on 127.0.0.1');
  return got;
}

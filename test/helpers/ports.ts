import { createServer } from 'node:net';

/**
 * A TCP port free on loopback right now, for what cannot listen on port 0 itself (a container's
 * published port, a URL written into a file before its server starts). Another process may take it
 * before it is used: prefer port 0 wherever the code under test can report the port it got.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

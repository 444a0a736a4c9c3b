import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli, runMain } from './helpers/cli.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { start } from './helpers/processes.js';
import { receiver } from './helpers/receiver.js';

const dirs: string[] = [];

afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** `certs` through the real CLI, a process. */
async function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { code, stdout, stderr } = await runCli(args);
  return { code, out: stdout, err: stderr };
}

/**
 * `certs` through the CLI's `main()` in this process: the same command without a process start
 * (~0.8 s of CPU each), in every test but the first and the refusal of a bad --host, which run
 * the real CLI.
 */
async function certs(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { code, stdout, stderr } = await runMain(args);
  return { code, out: stdout, err: stderr };
}

describe('reportbo-emulator certs', () => {
  it('writes a CA and a server certificate for the named hosts that a TLS client trusting only that CA accepts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'certs-cli-'));
    dirs.push(dir);
    const { code, out } = await cli(['certs', '--out', dir, '--host', 'localhost', '--host', 'receiver']);
    expect(code).toBe(0);
    expect(out).toContain(join(dir, 'ca.pem'));

    const [ca, cert, key] = await Promise.all(
      ['ca.pem', 'server.pem', 'server-key.pem'].map((f) => readFile(join(dir, f), 'utf8')),
    );
    const x509 = new X509Certificate(cert!);
    expect(x509.subjectAltName).toBe('DNS:localhost, DNS:receiver');
    expect(x509.verify(new X509Certificate(ca!).publicKey)).toBe(true);
    expect((await stat(join(dir, 'server-key.pem'))).mode & 0o777).toBe(0o600);

    const server = createServer({ cert, key, minVersion: 'TLSv1.2' }, (_req, res) => res.end('hello'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', servername: 'localhost', port, ca, path: '/' }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('hello');
    } finally {
      server.close();
    }
  });

  it('makes certificates that expire after the number of days given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'certs-cli-'));
    dirs.push(dir);
    expect((await certs(['certs', '--out', dir, '--days', '2'])).code).toBe(0);
    const x509 = new X509Certificate(await readFile(join(dir, 'server.pem'), 'utf8'));
    const daysLeft = (Date.parse(x509.validTo) - Date.now()) / 86_400_000;
    expect(daysLeft).toBeGreaterThan(1.9);
    expect(daysLeft).toBeLessThan(2.1);
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  });

  it('gives the CA a long default lifetime distinct from the server certificate, and refuses a server certificate outliving its CA', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'certs-cli-'));
    dirs.push(dir);
    const made = await certs(['certs', '--out', dir]);
    expect(made.code).toBe(0);
    expect(made.out).toContain('CA certificate, valid 3650 days');
    const daysLeft = async (file: string) =>
      (Date.parse(new X509Certificate(await readFile(join(dir, file), 'utf8')).validTo) - Date.now()) /
      86_400_000;
    expect(Math.round(await daysLeft('ca.pem'))).toBe(3650);
    expect(Math.round(await daysLeft('server.pem'))).toBe(30);
    expect((await certs(['certs', '--out', dir, '--ca-days', '400', '--days', '90'])).code).toBe(0);
    expect(Math.round(await daysLeft('ca.pem'))).toBe(400);
    const refused = await certs(['certs', '--out', dir, '--ca-days', '5', '--days', '10']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--days 10 is longer than --ca-days 5');
    expect(refused.err).not.toMatch(/\n\s+at /);
  });

  it('makes serve warn at start when a trusted CA expires within 7 days, and stay quiet for a long-lived one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'certs-cli-'));
    dirs.push(dir);
    expect((await certs(['certs', '--out', join(dir, 'short'), '--ca-days', '3', '--days', '1'])).code).toBe(
      0,
    );
    expect((await certs(['certs', '--out', join(dir, 'long')])).code).toBe(0);
    for (const [kind, warned] of [
      ['short', true],
      ['long', false],
    ] as const) {
      const serve = start(process.execPath, [
        BIN,
        'serve',
        '--port',
        '0',
        '--log-format',
        'json',
        '--ca-file',
        join(dir, kind, 'ca.pem'),
      ]);
      await serve.waitFor(/listening on/);
      // The warning names the CA file's own end of validity; how many days are left depends on how
      // long the start took, so the figure is checked in src/delivery/trust.test.ts on a fixed instant.
      // JSON lines escape the quotes around the subject.
      const ca = new X509Certificate(await readFile(join(dir, kind, 'ca.pem'), 'utf8'));
      const until = new Date(ca.validTo).toISOString().replaceAll('.', '\\.');
      const warning = new RegExp(
        `trusted certificate \\\\"CN=reportbo-emulator test CA \\w+\\\\" \\(ca-file\\) expires on ${until} \\(in [0-9.]+ days\\)`,
      );
      expect(warning.test(serve.output()), serve.output()).toBe(warned);
      serve.child.kill('SIGTERM');
      await serve.exited();
    }
  });

  it('keeps all three files with --keep-existing, as a compose one-shot started again must, and replaces them without it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'certs-cli-'));
    dirs.push(dir);
    const read = async () =>
      Promise.all(['ca.pem', 'server.pem', 'server-key.pem'].map((f) => readFile(join(dir, f), 'utf8')));
    expect((await certs(['certs', '--out', dir, '--keep-existing'])).code).toBe(0);
    const first = await read();
    const kept = await certs(['certs', '--out', dir, '--keep-existing']);
    expect(kept.code).toBe(0);
    expect(kept.out).toContain('kept');
    expect(await read()).toEqual(first);
    // A partial set is useless to a receiver: all three are written again.
    await rm(join(dir, 'server-key.pem'));
    expect((await certs(['certs', '--out', dir, '--keep-existing'])).code).toBe(0);
    const rewritten = await read();
    expect(rewritten[0]).not.toBe(first[0]);
    expect((await certs(['certs', '--out', dir])).code).toBe(0);
    expect((await read())[0]).not.toBe(rewritten[0]);
  });

  it('refuses a host that is neither a DNS name nor an IP address with exit code 2 and no stack trace', async () => {
    const { code, err } = await cli([
      'certs',
      '--out',
      join(tmpdir(), 'never-written'),
      '--host',
      'not a host',
    ]);
    expect(code).toBe(2);
    expect(err).toContain('--host: "not a host" is neither a DNS name nor an IP address');
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('makes a distinct CA on every run, so two receivers with two CAs are both delivered to while both are trusted', async () => {
    const made: Array<{ ca: string; cert: string; key: string }> = [];
    for (const _ of [1, 2]) {
      const dir = await mkdtemp(join(tmpdir(), 'certs-cli-'));
      dirs.push(dir);
      expect((await certs(['certs', '--out', dir, '--host', '127.0.0.1'])).code).toBe(0);
      const [ca, cert, key] = await Promise.all(
        ['ca.pem', 'server.pem', 'server-key.pem'].map((f) => readFile(join(dir, f), 'utf8')),
      );
      made.push({ ca: ca!, cert: cert!, key: key! });
    }
    const [a, b] = made.map((m) => new X509Certificate(m.ca));
    expect(a!.subject).not.toBe(b!.subject);
    expect(a!.serialNumber).not.toBe(b!.serialNumber);
    expect(new X509Certificate(made[1]!.cert).issuer).toBe(b!.subject);

    // The first CA from a CA file, the second through the admin API: both trusted at once.
    const caFile = join(dirs[0]!, 'ca.pem');
    const emu = await deliveryEmulator({ caFile });
    expect((await emu.admin('POST', '/trust', { pem: made[1]!.ca })).status).toBe(201);
    const receivers = await Promise.all(
      made.map((m) => receiver({ tls: { certPem: m.cert, keyPem: m.key } })),
    );
    for (const [i, r] of receivers.entries())
      await emu.credential({ id: `rcv-${i}`, apiKey: `key-${i}`, url: `${r.url}/hook` });
    const event = await emu.event({ type: 'Issue' });
    expect(event.notifications).toHaveLength(2);
    await emu.settle();
    for (const n of event.notifications) {
      const detail = await emu.notification(n.id);
      expect(detail.attempts.map((t) => [t.outcome, t.statusCode, t.message])).toEqual([
        ['http_status', 200, expect.anything()],
      ]);
      expect(detail.state).toBe('delivered');
    }
    for (const r of receivers) expect(r.requests).toHaveLength(1);
  });
});

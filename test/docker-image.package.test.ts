import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildImage,
  docker,
  dockerEngine,
  type Engine,
  emulatorImageInputs,
} from './helpers/docker-engine.js';
import { freePort } from './helpers/ports.js';
import { testCa, tlsReceiver } from './helpers/tls.js';

const engine: Engine = await dockerEngine();
if (engine.skip) console.log(`docker-image tests skipped: ${engine.skip}`);
const containers: string[] = [];
const volumes: string[] = [];
let image: string;

beforeAll(async () => {
  if (engine.skip) return;
  image = await buildImage(engine, 'reportbo-emulator', 'docker/Dockerfile', emulatorImageInputs());
}, 900_000);

afterAll(async () => {
  if (engine.skip) return;
  for (const c of containers) await docker(engine, ['rm', '-f', c]).catch(() => {});
  for (const v of volumes) await docker(engine, ['volume', 'rm', '-f', v]).catch(() => {});
});

/** `docker run -d` on the host network (the sandbox has no default bridge); answers the container id. */
async function runDetached(args: string[]): Promise<string> {
  const id = (await docker(engine, ['run', '-d', '--network', 'host', ...args])).trim();
  containers.push(id);
  return id;
}

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, id: string, limitMs = 60_000) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  const logs = await docker(engine, ['logs', '--tail', '20', id]).catch((e: Error) => e.message);
  throw new Error(`${what} did not happen within ${limitMs} ms; container log:\n${logs}`);
}

const health = (id: string) => docker(engine, ['inspect', '-f', '{{.State.Health.Status}}', id]);

describe.skipIf(engine.skip !== undefined)('the emulator image on a Docker engine', () => {
  it('reports healthy shortly after it answers, names the version, and says it listens on 0.0.0.0', async () => {
    const port = await freePort();
    const started = performance.now();
    const id = await runDetached(['-e', `REPORTBO_PORT=${port}`, image]);
    const body = await waitUntil(
      'health answering',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/__admin/health`);
        return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
      },
      id,
    );
    const answered = performance.now();
    await waitUntil(
      'status healthy',
      async () => ((await health(id)).trim() === 'healthy' ? true : undefined),
      id,
    );
    const healthy = performance.now();
    console.log(
      `image: answered ${((answered - started) / 1000).toFixed(2)} s after docker run, healthy ${((healthy - answered) / 1000).toFixed(2)} s after answering`,
    );
    const { version } = (await import('../package.json', { with: { type: 'json' } })).default;
    expect(body).toMatchObject({ status: 'ok', version });
    const logs = await docker(engine, ['logs', id]).then(async (out) => out + (await logsStderr(id)));
    expect(logs).toContain(
      `reportbo-emulator listening on http://0.0.0.0:${port} (reach it at http://127.0.0.1:${port}`,
    );
    const check = JSON.parse(await docker(engine, ['inspect', '-f', '{{json .Config.Healthcheck}}', id])) as {
      Interval: number;
    };
    expect(check.Interval).toBe(1_000_000_000);
  });

  it('carries the OCI labels source, revision, version and licenses', async () => {
    const labels = JSON.parse(
      await docker(engine, ['inspect', '-f', '{{json .Config.Labels}}', image]),
    ) as Record<string, string>;
    expect(labels).toMatchObject({
      'org.opencontainers.image.licenses': 'MIT',
      'org.opencontainers.image.version': 'dev',
      'org.opencontainers.image.revision': 'unknown',
      'org.opencontainers.image.source': '',
    });
  });

  it('writes certificates into a fresh named volume at /certs as an arbitrary uid in group 0', async () => {
    const volume = `reportbo-test-certs-${process.pid}`;
    volumes.push(volume);
    const out = await docker(engine, [
      'run',
      '--rm',
      '--network',
      'host',
      '--user',
      '12345:0',
      '-v',
      `${volume}:/certs`,
      image,
      'certs',
      '--out',
      '/certs',
      '--host',
      'localhost',
    ]);
    expect(out).toContain('wrote /certs/ca.pem');
    const listing = await docker(engine, [
      'run',
      '--rm',
      '--network',
      'host',
      '--entrypoint',
      'ls',
      '-v',
      `${volume}:/certs`,
      image,
      '-ln',
      '/certs',
    ]);
    expect(listing).toMatch(/12345 +0 .* ca\.pem/);
    const dirs = await docker(engine, [
      'run',
      '--rm',
      '--network',
      'host',
      '--entrypoint',
      'stat',
      image,
      '-c',
      '%a %g %n',
      '/certs',
      '/data',
    ]);
    expect(dirs.trim().split('\n')).toEqual(['2775 0 /certs', '2775 0 /data']);
  });

  it('as a service container given only environment variables, answers a token for its user and delivers to its credential', async () => {
    const receiver = await tlsReceiver('trusted');
    const port = await freePort();
    // What a GitHub Actions `services:` entry can give: an image, env and options, no files.
    const id = await runDetached([
      '-e',
      `REPORTBO_PORT=${port}`,
      '-e',
      'REPORTBO_CLOCK=manual',
      '-e',
      `REPORTBO_USERS=${JSON.stringify([{ username: 'sdk', password: 'secret', idWeb: 1001, webDescription: 'CI', versions: ['1.6', '1.7'] }])}`,
      '-e',
      `REPORTBO_CREDENTIALS=${JSON.stringify([{ id: 'ci', apiKey: 'ci-key', url: `${receiver.url}/reportbo` }])}`,
      '-e',
      `REPORTBO_CA_PEM=${testCa().certPem}`,
      image,
    ]);
    await waitUntil(
      'status healthy',
      async () => ((await health(id)).trim() === 'healthy' ? true : undefined),
      id,
    );
    const base = `http://127.0.0.1:${port}`;
    const token = await fetch(`${base}/api/1.7/AuthService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'sdk', Password: 'secret' }),
    });
    expect(await token.json()).toMatchObject({
      IDWeb: 1001,
      TransactionCode: null,
      Token: expect.any(String),
    });
    await fetch(`${base}/__admin/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":"Issue"}',
    });
    const settled = (await (await fetch(`${base}/__admin/notifications?wait=settled`)).json()) as {
      notifications: Array<{ credentialId: string; state: string }>;
    };
    expect(settled.notifications).toEqual([
      expect.objectContaining({ credentialId: 'ci', state: 'delivered' }),
    ]);
    expect(receiver.requests[0]!.headers.authorization).toBe('Bearer ci-key');
  });

  it('keeps state in a /data volume across docker kill and start, as an arbitrary uid in group 0', async () => {
    const volume = `reportbo-test-data-${process.pid}`;
    volumes.push(volume);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const id = await runDetached([
      '--user',
      '12345:0',
      '-v',
      `${volume}:/data`,
      '-e',
      `REPORTBO_PORT=${port}`,
      '-e',
      'REPORTBO_DATA_DIR=/data',
      '-e',
      'REPORTBO_CLOCK=manual',
      image,
    ]);
    const ready = () =>
      waitUntil(
        'health answering',
        async () => ((await fetch(`${base}/__admin/health`)).status === 200 ? true : undefined),
        id,
      );
    await ready();
    const config = (await (await fetch(`${base}/__admin/config`)).json()) as { dataDir?: string };
    expect(config.dataDir).toBe('/data');
    const post = (path: string, body: unknown) =>
      fetch(`${base}/__admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (
        await post('/credentials', {
          id: 'kept',
          apiKey: 'k',
          url: 'https://receiver.invalid/reportbo',
        })
      ).status,
    ).toBe(201);
    expect((await post('/clock/advance', { by: 'PT2H' })).status).toBe(200);
    const before = (await (await fetch(`${base}/__admin/clock`)).json()) as { now: string };

    await docker(engine, ['kill', id]); // SIGKILL: no chance to flush or say goodbye
    await docker(engine, ['start', id]);
    await ready();
    const credentials = (await (await fetch(`${base}/__admin/credentials`)).json()) as {
      credentials: Array<{ id: string }>;
    };
    expect(credentials.credentials.map((c) => c.id)).toEqual(['kept']);
    const after = (await (await fetch(`${base}/__admin/clock`)).json()) as { now: string };
    expect(after.now).toBe(before.now);
  });
});

/** `docker logs` replays the container's stderr on its own stderr: this reads both streams. */
async function logsStderr(id: string): Promise<string> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('docker', ['logs', id], { env: engine.env }, (_err, _stdout, stderr) => resolve(stderr));
  });
}

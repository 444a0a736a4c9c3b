/**
 * The Testcontainers module (packages/testcontainers, decision 0061) against a real Docker engine:
 * it starts the emulator image, gets a 1.7 JSON token, and sees an Issue delivered to an HTTPS
 * receiver running in this test process, reached through the container's route to the host.
 * Skipped with the reason printed when no engine is reachable (helpers/docker-engine.ts); in CI with
 * the docker sandbox present it runs. Uses testcontainers 11.x (12.x needs Node >= 22.22), the
 * devDependency of packages/testcontainers, which the root's `npm ci` installs (an npm workspace).
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImage, dockerEngine, type Engine, emulatorImageInputs, ROOT } from './helpers/docker-engine.js';
import { TESTCONTAINERS_DIR as MODULE_DIR, testcontainersMissing } from './helpers/packed.js';
import { freePort } from './helpers/ports.js';

const engine: Engine = await dockerEngine();
const missing = testcontainersMissing();
const skip = engine.skip ?? missing;
if (skip) console.log(`testcontainers tests skipped: ${skip}`);
if (process.env.CI === 'true' && missing && !engine.skip) throw new Error(missing);

type Module = typeof import('../packages/testcontainers/src/index.js');
let mod: Module;
let image: string;

beforeAll(async () => {
  if (skip) return;
  // What a user of the sandbox engine sets (docs/testcontainers.md): no Ryuk (its image comes from
  // Docker Hub), ports published on localhost.
  if (engine.env!.DOCKER_HOST) process.env.DOCKER_HOST = engine.env!.DOCKER_HOST;
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  process.env.TESTCONTAINERS_HOST_OVERRIDE = 'localhost';
  await promisify(execFile)(process.execPath, [
    join(ROOT, 'node_modules/typescript/bin/tsc'),
    '-p',
    MODULE_DIR,
  ]);
  mod = (await import(join(MODULE_DIR, 'dist/index.js'))) as Module;
  image = await buildImage(engine, 'reportbo-emulator', 'docker/Dockerfile', emulatorImageInputs());
}, 900_000);

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

interface Received {
  authorization: string | undefined;
  body: { Reservation: { BookingStatus: string } };
}

describe.skipIf(skip !== undefined)('ReportboEmulatorContainer on a Docker engine', () => {
  it('starts the image, answers a 1.7 JSON token, and delivers an Issue to an HTTPS receiver in this process', async () => {
    const port = await freePort();
    const started = performance.now();
    const container = await new mod.ReportboEmulatorContainer(image)
      .withClock('manual', { start: '2026-04-27T10:00:00Z' })
      .withSeed(42)
      .withUsers({
        username: 'sdk',
        password: 'secret',
        idWeb: 1001,
        webDescription: 'CI',
        versions: ['1.6', '1.7'],
      })
      .withHostReceiver(port)
      .start();
    console.log(
      `container healthy ${((performance.now() - started) / 1000).toFixed(1)} s after start(); host receiver at ${container.getHostReceiverHost()}`,
    );
    try {
      const urls = container.getAccessTokenUrls();
      expect(urls['1.7'].json).toBe(`${container.getBaseUrl()}/api/1.7/AuthService.json/GetAccessToken`);
      expect(Object.values(urls).flatMap((v) => Object.values(v))).toHaveLength(6);
      const token = await fetch(urls['1.7'].json, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Username: 'sdk', Password: 'secret' }),
      });
      expect(await token.json()).toMatchObject({
        Token: expect.any(String),
        IDWeb: 1001,
        WebDescription: 'CI',
        TransactionCode: null,
      });

      // The receiver: HTTPS with a certificate made inside the container for the host it dials.
      const { certPem, keyPem } = await container.makeReceiverCertificates();
      const received: Received[] = [];
      const server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({
            authorization: req.headers.authorization,
            body: JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')),
          });
          res.writeHead(200).end('ok');
        });
      });
      servers.push(server);
      // Only the address the container dials (the network's gateway, or loopback for the forwarder).
      const listenOn = /^\d+\.\d+\.\d+\.\d+$/.test(container.getHostReceiverHost())
        ? container.getHostReceiverHost()
        : '127.0.0.1';
      await new Promise<void>((resolve) => server.listen(port, listenOn, resolve));

      await container.admin.addCredential({
        id: 'ci',
        apiKey: 'ci-key',
        url: container.getHostReceiverUrl('/reportbo'),
      });
      await container.admin.emitEvent({ type: 'Issue' });
      const settled = await container.admin.waitSettled();
      expect(settled.notifications.map((n) => [n.credentialId, n.state, n.attemptCount])).toEqual([
        ['ci', 'delivered', 1],
      ]);
      expect(received).toEqual([
        {
          authorization: 'Bearer ci-key',
          body: expect.objectContaining({
            Reservation: expect.objectContaining({ BookingStatus: 'Issued' }),
          }),
        },
      ]);
    } finally {
      await container.stop();
    }
  }, 300_000);

  it('passes clock, seed, credentials and a scenario file to the container as the builders say', async () => {
    // The sandbox engine has no default bridge: a container that publishes ports needs a network.
    const { Network } = await import('testcontainers');
    const network = await new Network().start();
    const container = await new mod.ReportboEmulatorContainer(image)
      .withNetwork(network)
      .withClock('compressed', { start: new Date('2026-04-27T10:00:00Z'), hourMs: 5000 })
      .withSeed(7)
      .withCredentials({ id: 'preloaded', apiKey: 'k', url: 'https://receiver.example/reportbo' })
      .withScenarioFile(join(ROOT, 'scenarios/08-gettoken-migration.yaml'))
      .start();
    try {
      expect(await container.admin.health()).toMatchObject({ status: 'ok', clock: 'compressed', seed: 7 });
      expect((await container.admin.config()).clock).toMatchObject({ mode: 'compressed', hourMs: 5000 });
      expect((await container.admin.listCredentials()).map((c) => c.id)).toEqual(['preloaded']);
      // The scenario's users are preloaded (serve --scenario).
      expect((await container.admin.listUsers()).map((u) => u.username)).toEqual(['legacy', 'migrated']);
    } finally {
      await container.stop();
      await network.stop();
    }
  }, 300_000);
  it('sends the admin token it was given, which guards the admin API but not health', async (ctx) => {
    const { Network } = await import('testcontainers');
    const network = await new Network().start();
    const container = await new mod.ReportboEmulatorContainer(image)
      .withNetwork(network)
      .withAdminToken('tc-admin-token')
      .start();
    try {
      const config = (await container.admin.config()) as unknown as Record<string, unknown>;
      // The admin token setting (REPORTBO_ADMIN_TOKEN) came with the admin API guard; an image built
      // before it ignores the variable, and there is nothing to check.
      if (!('adminToken' in config))
        ctx.skip('this image has no admin token setting (GET /__admin/config lacks adminToken)');
      expect(config.adminToken).toBe(true);
      expect((await fetch(`${container.getBaseUrl()}/__admin/users`)).status).toBe(401);
      expect((await fetch(`${container.getBaseUrl()}/__admin/health`)).status).toBe(200);
      expect(await container.admin.listUsers()).toEqual([]);
    } finally {
      await container.stop();
      await network.stop();
    }
  }, 300_000);
});

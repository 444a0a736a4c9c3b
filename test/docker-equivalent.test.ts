/**
 * No docker engine runs in CI, so this runs what docker/compose.yaml runs, outside docker: the same
 * images' entrypoints, the same commands and the same environment, read from the compose file and
 * the Dockerfiles. Only what docker provides is replaced: container paths become temp directories,
 * service names become 127.0.0.1/localhost, and ports are picked free (port 0).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ComposeService,
  mapStrings,
  readComposeServices,
  readImageSpec,
} from './helpers/docker-files.js';
import { freePort } from './helpers/ports.js';
import { start } from './helpers/processes.js';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const compose = readComposeServices(join(ROOT, 'docker/compose.yaml'));
const emulatorImage = readImageSpec(join(ROOT, 'docker/Dockerfile'));
const receiverImage = readImageSpec(join(ROOT, 'docker/sample-receiver/Dockerfile'));

let tmp: string;
let paths: Record<string, string>;
let emulatorUrl: string;
let receiverPort: number;
let scenarioRun: { code: number | null; output: string };

/** The container command line of a service: image entrypoint + (compose command or image CMD), /app mapped. */
function commandLine(
  service: ComposeService,
  image: ReturnType<typeof readImageSpec>,
  app: string,
): string[] {
  const argv = [...image.entrypoint, ...(service.command ?? image.cmd)];
  return mapStrings(argv, { '/app/': `${app}/`, ...paths });
}

/** Image ENV, then compose environment, container paths mapped; then what only docker provided. */
function environment(
  service: ComposeService,
  image: ReturnType<typeof readImageSpec>,
  local: Record<string, string>,
) {
  return { ...mapStrings({ ...image.env, ...(service.environment ?? {}) }, paths), ...local };
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'docker-equivalent-'));
  paths = {
    '/certs': join(tmp, 'certs'),
    '/data/received': join(tmp, 'received'),
    '/scenarios': join(tmp, 'scenarios'),
    // Where each image's process writes the URL its HEALTHCHECK reads.
    '/tmp/reportbo-emulator.url': join(tmp, 'emulator.url'),
    '/tmp/sample-receiver.url': join(tmp, 'receiver.url'),
  };

  // certs: a one-shot that must exit 0.
  const certs = start(
    ...split(commandLine(compose.certs!, emulatorImage, ROOT)),
    environment(compose.certs!, emulatorImage, {}),
  );
  expect(await certs.exited(), certs.output()).toBe(0);

  // receiver: the sample receiver image's entrypoint is /app/server.js.
  const receiver = start(
    ...split(commandLine(compose.receiver!, receiverImage, join(ROOT, 'docker/sample-receiver'))),
    environment(compose.receiver!, receiverImage, { RECEIVER_HOST: '127.0.0.1', RECEIVER_PORT: '0' }),
  );
  receiverPort = Number((await receiver.waitFor(/listening on https:\/\/127\.0\.0\.1:(\d+)/))[1]);

  const emulator = start(
    ...split(commandLine(compose.emulator!, emulatorImage, ROOT)),
    environment(compose.emulator!, emulatorImage, { REPORTBO_HOST: '127.0.0.1', REPORTBO_PORT: '0' }),
  );
  emulatorUrl = (await emulator.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;

  // The scenario file is mounted into /scenarios; only the receiver's service name and port differ.
  const scenarioMount = compose.scenario!.volumes!.find((v) => v.includes('/scenarios/'))!;
  const [source, target] = scenarioMount.split(':') as [string, string];
  const text = await readFile(join(ROOT, 'docker', source), 'utf8');
  await mkdir(paths['/scenarios']!, { recursive: true });
  await writeFile(
    mapStrings([target], paths)[0]!,
    text.replaceAll('https://receiver:8443', `https://localhost:${receiverPort}`),
  );
  const argv = mapStrings(commandLine(compose.scenario!, emulatorImage, ROOT), {
    'http://emulator:8080': emulatorUrl,
  });
  const run = start(...split(argv), environment(compose.scenario!, emulatorImage, {}));
  scenarioRun = { code: await run.exited(), output: run.output() };
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function split(argv: string[]): [string, string[]] {
  const [command, ...args] = argv;
  return [command === 'node' ? process.execPath : command!, args];
}

describe('the compose example, run outside docker', () => {
  it('keeps the default HTTPS rule: no service allows plain http, the emulator trusts the generated CA', () => {
    for (const service of Object.values(compose)) {
      expect(Object.keys(service.environment ?? {})).not.toContain('REPORTBO_ALLOW_HTTP');
      expect(service.command ?? []).not.toContain('--allow-http');
    }
    expect(compose.emulator!.environment!.REPORTBO_CA_FILE).toBe('/certs/ca.pem');
  });

  it('shows the compose command that runs the scenario and returns its exit code, everywhere it is shown', async () => {
    const places = ['docs/docker.md', 'docs/ci.md', 'docker/compose.yaml'];
    let shown = 0;
    for (const place of places) {
      const text = await readFile(join(ROOT, place), 'utf8');
      for (const [line] of text.matchAll(/docker compose [^\n]*\bup\b[^\n]*/g)) {
        shown++;
        // Naming the service makes compose wait for it: `certs` exiting no longer stops the run.
        expect(line, place).toMatch(/--exit-code-from scenario scenario\s*$/);
      }
    }
    expect(shown).toBeGreaterThanOrEqual(3);
  });

  it('builds without Docker Hub frontends, on a supported Node LTS line', async () => {
    for (const file of ['docker/Dockerfile', 'docker/sample-receiver/Dockerfile']) {
      const text = await readFile(join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/^#\s*syntax=/m);
      // `FROM [--platform=…] image [AS stage]`: the build stage runs on the builder's own platform.
      const bases = [...text.matchAll(/^FROM\s+(?:--platform=\S+\s+)?(\S+)/gm)].map((m) => m[1]);
      expect(bases.length, file).toBeGreaterThan(0);
      for (const base of bases) expect(base, file).toMatch(/^node:(22|24)-slim$/);
    }
  });

  it('runs the scenario against the emulator and the sample receiver with exit code 0', () => {
    expect(scenarioRun.output).toMatch(/1 scenario: 1 passed, 0 failed/);
    expect(scenarioRun.code).toBe(0);
  });

  it('has the sample receiver store every acknowledged body under its filename, valid against the published schema', async () => {
    const schema = JSON.parse(await readFile(join(ROOT, 'docs/notification.schema.json'), 'utf8')) as object;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormatsModule.default(ajv);
    const validate = ajv.compile(schema);
    const files = (await readdir(paths['/data/received']!)).sort();
    // Issue+Void of one booking, Issue+Exchange (old and new) of another, one Issue to the right key.
    expect(files).toHaveLength(6);
    for (const file of files) {
      const body = JSON.parse(await readFile(join(paths['/data/received']!, file), 'utf8')) as {
        Reservation: { BookingNumber: string };
      };
      expect(validate(body), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(file).toMatch(new RegExp(`^\\d{8}_\\d{6}Z-${body.Reservation.BookingNumber}(\\.\\d+)?\\.json$`));
    }
  });

  it('leaves the notification with the wrong ApiKey undelivered after the receiver answered 401, cancelled once the run removed its credential', async () => {
    const res = await fetch(`${emulatorUrl}/__admin/notifications`);
    const all = (await res.json()) as {
      notifications: Array<{ id: string; state: string; credentialId: string; cancelReason: string | null }>;
    };
    // `run --target` added the scenario's credentials under ids of its own (`wrong-key.run-<hex>`).
    const notifications = all.notifications.filter((n) => n.credentialId.startsWith('wrong-key.run-'));
    expect(notifications).toHaveLength(1);
    // The scenario expected it pending (docker/scenario.yaml); the runner deletes its credentials at the end.
    expect(notifications[0]).toMatchObject({ state: 'cancelled', cancelReason: 'credential_deleted' });
    const detail = (await (
      await fetch(`${emulatorUrl}/__admin/notifications/${notifications[0]!.id}`)
    ).json()) as {
      attempts: Array<{ statusCode: number; responseBody: string }>;
    };
    expect(detail.attempts.map((a) => a.statusCode)).toEqual([401]);
    expect(detail.attempts[0]!.responseBody).toContain('Bearer');
  });

  it('passes both images’ HEALTHCHECK commands against the running services, the receiver’s without NODE_EXTRA_CA_CERTS', async () => {
    const emuCheck = healthcheck(emulatorImage, ROOT, environment(compose.emulator!, emulatorImage, {}));
    expect(await emuCheck.exited(), emuCheck.output()).toBe(0);
    const recvEnv = environment(compose.receiver!, receiverImage, {});
    expect(recvEnv).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
    const recvCheck = healthcheck(receiverImage, join(ROOT, 'docker/sample-receiver'), recvEnv);
    expect(await recvCheck.exited(), recvCheck.output()).toBe(0);
  });

  it('finds the emulator on a port given only as a CLI argument (serve --port N), and fails when it stops', async () => {
    const port = String(await freePort());
    const urlFile = join(tmp, 'cli-port.url');
    const env = {
      ...mapStrings(emulatorImage.env, paths),
      REPORTBO_URL_FILE: urlFile,
      REPORTBO_HOST: '127.0.0.1',
    };
    const before = healthcheck(emulatorImage, ROOT, env);
    expect(await before.exited(), 'no URL file yet: not healthy').toBe(1);
    const serve = start(
      ...split(commandLine({ command: ['serve', '--port', port] }, emulatorImage, ROOT)),
      env,
    );
    await serve.waitFor(new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`));
    const up = healthcheck(emulatorImage, ROOT, env);
    expect(await up.exited(), up.output()).toBe(0);
    serve.child.kill('SIGTERM');
    await serve.exited();
    const down = healthcheck(emulatorImage, ROOT, env);
    expect(await down.exited()).toBe(1);
    expect(down.output()).toContain(`127.0.0.1:${port}/__admin/health`);
  });

  it('finds the sample receiver on a port given only as a CLI argument (--port N)', async () => {
    const port = String(await freePort());
    const env = {
      ...environment(compose.receiver!, receiverImage, { RECEIVER_HOST: '127.0.0.1' }),
      RECEIVER_URL_FILE: join(tmp, 'receiver-cli-port.url'),
    };
    const app = join(ROOT, 'docker/sample-receiver');
    const receiver = start(
      ...split(mapStrings([...receiverImage.entrypoint, '--port', port], { '/app/': `${app}/` })),
      env,
    );
    await receiver.waitFor(new RegExp(`listening on https://127\\.0\\.0\\.1:${port}`));
    const check = healthcheck(receiverImage, app, env);
    expect(await check.exited(), check.output()).toBe(0);
  });

  // Last: it posts to the same receiver, whose stored files the tests above count.
  it('runs the verify service against the sample receiver: every case passes, --probe included, exit 0', async () => {
    const service = compose.verify!;
    const argv = mapStrings(commandLine(service, emulatorImage, ROOT), {
      'https://receiver:8443': `https://localhost:${receiverPort}`,
    });
    expect(argv).toContain('--probe');
    const run = start(...split(argv), environment(service, emulatorImage, {}));
    const code = await run.exited();
    expect(run.output()).toMatch(/OK: 17 cases: 17 passed, 0 failed, 0 warned, 0 skipped/);
    expect(code).toBe(0);
  });

  it('runs the scenario against an emulator that requires a token, REPORTBO_ADMIN_TOKEN set on emulator and scenario (docs/ci.md)', async () => {
    const token = { REPORTBO_ADMIN_TOKEN: 'compose-token-1d4b' };
    const emulator = start(
      ...split(commandLine(compose.emulator!, emulatorImage, ROOT)),
      environment(compose.emulator!, emulatorImage, {
        REPORTBO_HOST: '127.0.0.1',
        REPORTBO_PORT: '0',
        ...token,
      }),
    );
    const url = (await emulator.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    const argv = mapStrings(commandLine(compose.scenario!, emulatorImage, ROOT), {
      'http://emulator:8080': url,
    });
    const refused = start(...split(argv), environment(compose.scenario!, emulatorImage, {}));
    expect(await refused.exited()).toBe(1);
    expect(refused.output()).toContain('REPORTBO_ADMIN_TOKEN');
    const run = start(...split(argv), environment(compose.scenario!, emulatorImage, token));
    const code = await run.exited();
    expect(run.output()).toMatch(/1 scenario: 1 passed, 0 failed/);
    expect(code).toBe(0);
    emulator.child.kill('SIGTERM');
    expect(await emulator.exited()).toBe(0);
  });
});

/** Runs an image's HEALTHCHECK command with `/app` mapped to `app`. */
function healthcheck(image: ReturnType<typeof readImageSpec>, app: string, env: Record<string, string>) {
  return start(...split(mapStrings(image.healthcheck, { '/app/': `${app}/` })), env);
}

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
}, 60_000);

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
    const res = await fetch(`${emulatorUrl}/__admin/notifications?credentialId=wrong-key`);
    const { notifications } = (await res.json()) as {
      notifications: Array<{ id: string; state: string; cancelReason: string | null }>;
    };
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

  it('passes both images’ HEALTHCHECK commands against the running services, and fails them when nothing listens', async () => {
    const emulatorPort = new URL(emulatorUrl).port;
    const emuCheck = start(...split(emulatorImage.healthcheck), { REPORTBO_PORT: emulatorPort });
    expect(await emuCheck.exited()).toBe(0);
    const recvEnv = environment(compose.receiver!, receiverImage, { RECEIVER_PORT: String(receiverPort) });
    const recvCheck = start(...split(receiverImage.healthcheck), recvEnv);
    expect(await recvCheck.exited()).toBe(0);
    const deadCheck = start(...split(emulatorImage.healthcheck), { REPORTBO_PORT: '1' });
    expect(await deadCheck.exited()).toBe(1);
  });
});

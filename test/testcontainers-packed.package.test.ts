/**
 * The Testcontainers module as a user gets it (issue 27 §1, decision 0061): `npm pack` run in
 * packages/testcontainers as docs/testcontainers.md says (its `prepack` builds the ES module and the
 * CommonJS build), installed with the packed main package and testcontainers 11 into an empty
 * project, then `require`d from Jest 29 and Jest 30 in their default CommonJS mode and type-checked
 * from a CommonJS TypeScript project (node16 resolution, skipLibCheck off). With a Docker engine
 * (helpers/docker-engine.ts) the Jest test also starts the image and gets a token; without one it
 * checks what a require gives and says so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImage, dockerEngine, emulatorImageInputs } from './helpers/docker-engine.js';
import {
  TESTCONTAINERS_DIR as MODULE_DIR,
  pack,
  run,
  runJest,
  testcontainersMissing,
  typeCheck,
  USER_TSCONFIG,
  userProject,
} from './helpers/packed.js';

const missing = testcontainersMissing();
if (missing) console.log(`packed Testcontainers module tests skipped: ${missing}`);
if (process.env.CI === 'true' && missing) throw new Error(missing);

let dir: string;
let project: string;
let packedFiles: string[];
const dockerEnv: Record<string, string> = {};

beforeAll(async () => {
  if (missing) return;
  const tarballs = await mkdtemp(join(tmpdir(), 'pack-tc-'));
  // The documented command, scripts and all: prepack builds dist/ and dist/cjs/.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tarballs], {
    cwd: MODULE_DIR,
    timeout: 300_000,
  });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = packed!.files.map((f) => f.path);
  const main = await pack(tarballs);
  ({ dir, project } = await userProject([main, join(tarballs, packed!.filename), 'testcontainers@11']));
  await rm(tarballs, { recursive: true, force: true });
  const engine = await dockerEngine();
  if (engine.skip) {
    console.log(`the Jest tests only require the module (no container): ${engine.skip}`);
  } else {
    Object.assign(dockerEnv, engine.env?.DOCKER_HOST ? { DOCKER_HOST: engine.env.DOCKER_HOST } : {}, {
      TESTCONTAINERS_RYUK_DISABLED: 'true',
      TESTCONTAINERS_HOST_OVERRIDE: 'localhost',
      REPORTBO_TEST_IMAGE: await buildImage(
        engine,
        'reportbo-emulator',
        'docker/Dockerfile',
        emulatorImageInputs(),
      ),
    });
  }
}, 900_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const JEST_TEST = `const { ReportboEmulatorContainer, EMULATOR_PORT } = require('reportbo-emulator-testcontainers');
test('require gives the CommonJS build, whose container starts and answers a token when an engine is there', async () => {
  expect(require.resolve('reportbo-emulator-testcontainers')).toMatch(/dist[\\\\/]cjs[\\\\/]index\\.cjs$/);
  expect(EMULATOR_PORT).toBe(8080);
  const builder = new ReportboEmulatorContainer(process.env.REPORTBO_TEST_IMAGE || 'reportbo-emulator:local')
    .withClock('manual', { start: '2026-04-27T10:00:00Z' })
    .withUsers({ username: 'sdk', password: 'secret', idWeb: 1001, webDescription: 'CI', versions: ['1.7'] });
  expect(typeof builder.start).toBe('function');
  if (!process.env.REPORTBO_TEST_IMAGE) return;
  // A network of its own: an engine without a default bridge (the sandbox) publishes ports only so.
  const network = await new (require('testcontainers').Network)().start();
  const container = await builder.withNetwork(network).start();
  try {
    const res = await fetch(container.getAccessTokenUrls()['1.7'].json, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'sdk', Password: 'secret' }),
    });
    expect((await res.json()).IDWeb).toBe(1001);
    expect((await container.admin.health()).status).toBe('ok');
  } finally {
    await container.stop();
    await network.stop();
  }
});
`;

describe.skipIf(missing !== undefined)('the packed Testcontainers module in a user project', () => {
  it('npm pack in packages/testcontainers ships the ES module, the CommonJS build and both declarations', () => {
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/cjs/index.cjs', 'dist/cjs/index.d.cts'])
      expect(packedFiles).toContain(file);
  });

  for (const major of [29, 30]) {
    it(`is required from Jest ${major} in its default CommonJS mode`, async () => {
      await writeFile(join(project, `tc-jest${major}.test.js`), JEST_TEST);
      const { passed, failed, stderr } = await runJest(major, project, `tc-jest${major}.test.js`, {
        timeout: 300_000,
        env: dockerEnv,
      });
      expect({ passed, failed }, stderr).toEqual({ passed: 1, failed: 0 });
    }, 400_000);
  }

  it('type-checks from a CommonJS TypeScript project with node16 resolution and skipLibCheck off', async () => {
    const typed = (source: string) => typeCheck(project, 'tc.ts', source, USER_TSCONFIG.strictNode16);
    const checked = await typed(
      "import { ReportboEmulatorContainer } from 'reportbo-emulator-testcontainers';\n" +
        "export const c = new ReportboEmulatorContainer('img').withSeed(1).withClock('manual');\n",
    );
    // testcontainers' own declarations are its business: only errors in this package's files count.
    expect(checked.split('\n').filter((l) => /reportbo-emulator|tc\.ts/.test(l))).toEqual([]);
    const refused = await typed(
      "import { ReportboEmulatorContainer } from 'reportbo-emulator-testcontainers';\nnew ReportboEmulatorContainer('img').withClock('sometimes');\n",
    );
    expect(refused).toContain('"sometimes"');
  });
});

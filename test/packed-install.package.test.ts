/**
 * The packed package used the way test suites use it (decision 0060): from an ES module, from
 * `require`, from Jest 29 and Jest 30 in their default CommonJS mode, and from Vitest. Each runs a
 * test file that starts an emulator, gets a 1.7 token for a preloaded user and reads it back through
 * the admin client. Jest is installed from the registry once into a cache folder (helpers/packed.ts).
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOC_FILES, docBlocks } from './helpers/doc-blocks.js';
import { pack, ROOT, run, runJest, typeCheck, USER_TSCONFIG, userProject } from './helpers/packed.js';

let dir: string;
let project: string;

beforeAll(async () => {
  const tarballDir = await mkdtemp(join(tmpdir(), 'pack-'));
  const tarball = await pack(tarballDir);
  ({ dir, project } = await userProject([tarball]));
  await rm(tarballDir, { recursive: true, force: true });
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The body of each runner's test: the same calls in both module systems. */
const BODY = `
  const emulator = await startEmulator({
    users: [{ username: 'sdk', password: 'secret', idWeb: 1001, webDescription: 'Agency', versions: ['1.7'] }],
  });
  try {
    const res = await fetch(emulator.baseUrls['1.7'] + '/AuthService.json/GetAccessToken', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'sdk', Password: 'secret' }),
    });
    const answer = await res.json();
    expect(answer.IDWeb).toBe(1001);
    expect(answer.TransactionCode).toBe(null);
    const client = new AdminClient(emulator.url);
    const journal = await client.listRequests();
    expect(journal.length).toBe(1);
    expect(typeof verifyReceiver).toBe('function');
  } finally {
    await emulator.stop();
  }
`;

const CJS_TEST = `const { startEmulator, AdminClient, verifyReceiver } = require('reportbo-emulator');
test('a token from the emulator', async () => {${BODY}});
test('a YAML config file given to startEmulator loads its users', async () => {
  const file = require('node:path').join(__dirname, 'jest-config.yaml');
  require('node:fs').writeFileSync(file, 'users:\\n  - { username: yaml, password: p, idWeb: 2024, webDescription: Y, versions: ["1.7"] }\\n');
  const emulator = await startEmulator({ config: file });
  try {
    const res = await fetch(emulator.baseUrls['1.7'] + '/AuthService.json/GetAccessToken', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'yaml', Password: 'p' }),
    });
    expect((await res.json()).IDWeb).toBe(2024);
  } finally {
    await emulator.stop();
  }
  await expect(startEmulator({ hourMS: 1 })).rejects.toThrow('did you mean "hourMs"?');
});
test('the CommonJS build is what require() loads', () => {
  expect(require.resolve('reportbo-emulator')).toMatch(/dist[\\\\/]cjs[\\\\/]index\\.cjs$/);
});
`;

/**
 * The user's project has Vitest installed: this checkout's copy, linked (its own dependencies
 * resolve beside it). Answers its entry.
 */
async function linkVitest(): Promise<string> {
  await symlink(join(ROOT, 'node_modules/vitest'), join(project, 'node_modules/vitest'), 'dir').catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    },
  );
  return join(project, 'node_modules/vitest/vitest.mjs');
}

describe('the packed package in a user project', () => {
  it('works from an ES module and from require(), each loading its own build', async () => {
    const script = (load: string) =>
      `${load}\nconst expect = (v) => ({ toBe: (w) => { if (v !== w) throw new Error(v + ' !== ' + w); } });\n` +
      `(async () => {${BODY}; console.log('ok'); })().catch((e) => { console.error(e); process.exit(1); });\n`;
    await writeFile(
      join(project, 'use.mjs'),
      script("import { startEmulator, AdminClient, verifyReceiver } from 'reportbo-emulator';"),
    );
    await writeFile(
      join(project, 'use.cjs'),
      script("const { startEmulator, AdminClient, verifyReceiver } = require('reportbo-emulator');"),
    );
    for (const file of ['use.mjs', 'use.cjs']) {
      const { stdout } = await run(process.execPath, [file], { cwd: project, timeout: 60_000 });
      expect(stdout.trim(), file).toBe('ok');
    }
    const resolved = await run(
      process.execPath,
      ['--input-type=module', '-e', "console.log(import.meta.resolve('reportbo-emulator'))"],
      { cwd: project },
    );
    expect(resolved.stdout.trim()).toMatch(/\/dist\/bin\/index\.js$/);
  });

  it('serves startEmulator from reportbo-emulator/start: the lean ES entry, and the CommonJS build from require()', async () => {
    // The lean entry exports startEmulator alone: the admin client comes from the started emulator.
    const script = (load: string) =>
      `${load}\nconst expect = (v) => ({ toBe: (w) => { if (v !== w) throw new Error(v + ' !== ' + w); } });\n` +
      `(async () => {${BODY.replace('new AdminClient(emulator.url)', 'emulator.client').replace(
        "expect(typeof verifyReceiver).toBe('function');",
        "expect(typeof startEmulator).toBe('function');",
      )}; console.log('ok'); })().catch((e) => { console.error(e); process.exit(1); });\n`;
    await writeFile(
      join(project, 'start.mjs'),
      script("import { startEmulator } from 'reportbo-emulator/start';"),
    );
    await writeFile(
      join(project, 'start.cjs'),
      script("const { startEmulator } = require('reportbo-emulator/start');"),
    );
    for (const file of ['start.mjs', 'start.cjs']) {
      const { stdout } = await run(process.execPath, [file], { cwd: project, timeout: 60_000 });
      expect(stdout.trim(), file).toBe('ok');
    }
    const resolved = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { createRequire } from 'node:module';" +
          "console.log(import.meta.resolve('reportbo-emulator/start'));" +
          "console.log(createRequire(process.cwd() + '/x.js').resolve('reportbo-emulator/start'));",
      ],
      { cwd: project },
    );
    const [esm, cjs] = resolved.stdout.trim().split('\n');
    expect(esm).toMatch(/\/dist\/bin\/start\.js$/);
    expect(cjs).toMatch(/\/dist\/cjs\/index\.cjs$/);
  });

  for (const major of [29, 30]) {
    it(`works from Jest ${major} in its default CommonJS mode`, async () => {
      await writeFile(join(project, `jest${major}.test.js`), CJS_TEST);
      const { passed, failed, stderr, jest } = await runJest(major, project, `jest${major}.test.js`, {
        timeout: 180_000,
      });
      expect({ passed, failed }, stderr).toEqual({ passed: 3, failed: 0 });
      const version = (await run(process.execPath, [jest, '--version'], { cwd: project })).stdout.trim();
      expect(version.split('.')[0]).toBe(String(major));
    }, 400_000);
  }

  it('works from Vitest', async () => {
    await writeFile(
      join(project, 'emulator.vitest.test.mjs'),
      `import { test, expect } from 'vitest';
import { startEmulator, AdminClient, verifyReceiver } from 'reportbo-emulator';
test('a token from the emulator', async () => {${BODY}});
`,
    );
    const vitest = await linkVitest();
    const result = await run(
      process.execPath,
      [vitest, 'run', '--root', project, 'emulator.vitest.test.mjs'],
      {
        cwd: project,
        timeout: 120_000,
      },
    ).catch((err: { stdout: string; stderr: string }) => err);
    expect(result.stdout + result.stderr).toMatch(/Tests\s+.*1 passed/);
  });

  it("runs the documents' runnable blocks as written: the README's Vitest file, the plain script, the Jest file", async () => {
    const blocks = DOC_FILES.flatMap(docBlocks).flatMap((b) =>
      b.mark.kind === 'run' ? [{ ...b.mark, text: b.text, where: b.where }] : [],
    );
    expect(blocks.map((b) => b.runner).sort()).toEqual(['jest', 'node', 'vitest']);
    for (const block of blocks) {
      await writeFile(join(project, block.file), `${block.text}\n`);
      if (block.runner === 'node') {
        const { stdout } = await run(process.execPath, [block.file], { cwd: project, timeout: 120_000 });
        expect(stdout.trim(), block.where).toBe('delivered');
      } else if (block.runner === 'vitest') {
        const result = await run(
          process.execPath,
          [await linkVitest(), 'run', '--root', project, block.file],
          {
            cwd: project,
            timeout: 120_000,
          },
        ).catch((err: { stdout: string; stderr: string }) => err);
        expect(result.stdout + result.stderr, block.where).toMatch(/Tests\s+.*1 passed/);
        expect(result.stdout + result.stderr, block.where).not.toMatch(/failed/);
      } else {
        const { passed, failed, stderr } = await runJest(30, project, block.file, { timeout: 180_000 });
        expect({ passed, failed }, `${block.where}\n${stderr}`).toEqual({ passed: 1, failed: 0 });
      }
    }
  }, 400_000);

  it('gives TypeScript code compiled as CommonJS the same types through the require condition', async () => {
    const typed = (source: string) => typeCheck(project, 'typed.cts', source, USER_TSCONFIG.nodeNext);
    expect(
      await typed(
        "import { startEmulator, type StartedEmulator } from 'reportbo-emulator';\n" +
          "export const e: Promise<StartedEmulator> = startEmulator({ clock: 'manual' });\n",
      ),
    ).toBe('');
    expect(
      await typed(
        "import { startEmulator } from 'reportbo-emulator';\nstartEmulator({ clock: 'sometimes' });\n",
      ),
    ).toContain('"sometimes"');
  });

  it('type-checks a CommonJS project with node16 resolution and skipLibCheck off (no TS1479)', async () => {
    // A project without "type": "module": its .ts files are CommonJS, and every declaration file of
    // the package is checked (skipLibCheck: false), as a strict consumer's set-up does.
    const typed = (source: string) => typeCheck(project, 'node16.ts', source, USER_TSCONFIG.strictNode16);
    expect(
      await typed(
        "import { startEmulator, AdminClient, type StartedEmulator } from 'reportbo-emulator';\n" +
          "export const e: Promise<StartedEmulator> = startEmulator({ config: 'emulator.yaml', urlFile: 'url' });\n" +
          "export const c = new AdminClient('http://127.0.0.1:1');\n",
      ),
    ).toBe('');
    expect(
      await typed("import { startEmulator } from 'reportbo-emulator';\nstartEmulator({ hourMS: 5 });\n"),
    ).toContain("'hourMS' does not exist");
  });
});

/**
 * The published package, as a user gets it: README's tarball line (`npm run pack:tarball`, which
 * runs scripts/pack.mjs), install the tarball into an empty project, then use the CLI and the
 * programmatic API from there. `scripts/pack.mjs --no-build` packs the dist/
 * that `npm test` built in `pretest` (rebuilding here would rewrite dist/ under other test files),
 * plus the CommonJS build (helpers/packed.ts).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pack, ROOT, run, typeCheck, USER_TSCONFIG } from './helpers/packed.js';

let dir: string;
let project: string;
let tarball: string;
let installOutput: { stdout: string; stderr: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pack-'));
  // The CommonJS build first (dist/cjs/, what `require` loads), as `prepare` does before a publish.
  tarball = await pack(dir);
  project = join(dir, 'user-project');
  await run('mkdir', ['-p', project]);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  // --prefer-offline: dependencies come from the npm cache when they are there.
  installOutput = await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: project,
    timeout: 240_000,
  });
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('installs from the tarball without a word about install scripts: its manifest has no prepare (decision 0132)', async () => {
    // npm 11 lists the prepare script of a package installed from outside the registry on every
    // install ("install scripts not yet covered by allowScripts"); the tarball runs nothing.
    expect(installOutput.stdout + installOutput.stderr).not.toMatch(/install-scripts|allowScripts|prepare/);
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    const packed = JSON.parse(stdout) as { scripts: Record<string, string> };
    expect(packed.scripts.prepare).toBeUndefined();
    // The checkout keeps it: a git install builds with it (test/install-lines.package.test.ts).
    const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as typeof packed;
    expect(own.scripts.prepare).toBe('npm run build && npm run build:cjs');
    expect({ ...packed.scripts, prepare: own.scripts.prepare }).toEqual(own.scripts);
    // README's tarball line packs it the same way.
    expect(own.scripts['pack:tarball']).toBe('node scripts/pack.mjs');
    expect(await readFile(join(ROOT, 'README.md'), 'utf8')).toContain(
      '(cd reportbo-emulator && npm install && npm run pack:tarball)',
    );
  });

  it('ships the CLI, the compiled entry with its types, the schemas and the scenarios, and no sources or tests', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    for (const f of [
      'package/bin/reportbo-emulator.js',
      'package/dist/bin/index.js',
      'package/dist/bin/index.d.ts',
      'package/dist/bin/start.js',
      'package/dist/bin/start.d.ts',
      'package/dist/cjs/index.cjs',
      'package/dist/cjs/index.d.cts',
      'package/dist/bin/main.js',
      'package/docs/notification.schema.json',
      'package/docs/notification.openapi.json',
      'package/docs/notification.asyncapi.json',
      'package/scenarios/01-issue-happy-path.yaml',
      'package/ui/index.html',
      'package/ui/dashboard.js',
      'package/ui/dashboard.css',
    ])
      expect(files).toContain(f);
    expect(files.filter((f) => /^package\/(src|test|docker|bench)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.test.js'))).toEqual([]);
    // One copy of the code per module system (decision 0216): not tsc's file-per-module tree too.
    expect(files.filter((f) => /^package\/dist\/(?!bin\/|cjs\/)/.test(f))).toEqual([]);
  });

  it('stays at most 4 MB unpacked, as `npm pack --dry-run` counts it (issue 39, decision 0216)', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
    const [{ unpackedSize, files }] = JSON.parse(stdout) as [
      { unpackedSize: number; files: Array<{ path: string; size: number }> },
    ];
    // The tarball and the dry run list the same files (scripts/pack.mjs packs what `files` names).
    const { stdout: listed } = await run('tar', ['-tzf', tarball]);
    expect(listed.split('\n').filter((f) => f && !f.endsWith('/')).length).toBe(files.length);
    const biggest = [...files]
      .sort((a, b) => b.size - a.size)
      .slice(0, 5)
      .map((f) => `${f.path} ${f.size}`);
    expect(unpackedSize, `the biggest files: ${biggest.join(', ')}`).toBeLessThanOrEqual(4_000_000);
  });

  it('ships a MIT LICENSE, the fields npm users expect, and every document the README links to', async () => {
    const installed = join(project, 'node_modules/reportbo-emulator');
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = new Set(
      stdout
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, '')),
    );
    expect(files).toContain('LICENSE');
    expect(await readFile(join(installed, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} reportbo-emulator contributors\n/,
    );
    const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(pkg.license).toBe('MIT');
    expect(pkg.keywords).toEqual(expect.arrayContaining(['reportbo', 'webhook', 'emulator']));
    expect(pkg.engines).toEqual({ node: '>=20.19' });
    // Relative links of the README and the docs resolve inside the package (docs/ ships with it).
    const docs = [...files].filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f));
    expect(docs.length).toBeGreaterThan(8);
    const broken: string[] = [];
    for (const doc of docs) {
      const text = await readFile(join(installed, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const path = normalize(join(dirname(doc), target!));
        const isDir = [...files].some((f) => f.startsWith(`${path}/`));
        if (!files.has(path) && !isDir) broken.push(`${doc} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lets a CommonJS script require() the package and start, use and stop an emulator', async () => {
    await writeFile(
      join(project, 'smoke.cjs'),
      [
        "const { startEmulator, EmulatorError } = require('reportbo-emulator');",
        "const { version } = require('reportbo-emulator/package.json');",
        '(async () => {',
        '  const emulator = await startEmulator();',
        "  const res = await fetch(emulator.url + '/__admin/health');",
        '  const body = await res.json();',
        '  await emulator.stop();',
        '  console.log(JSON.stringify({ version, status: res.status, body, error: typeof EmulatorError }));',
        '})();',
      ].join('\n'),
    );
    const { stdout, stderr } = await run(process.execPath, ['smoke.cjs'], { cwd: project, timeout: 30_000 });
    const result = JSON.parse(stdout) as {
      version: string;
      status: number;
      body: { status: string };
      error: string;
    };
    expect(result).toMatchObject({ status: 200, body: { status: 'ok' }, error: 'function' });
    expect(result.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(stderr).not.toContain('ERR_');
  });

  it('installs into an empty project where `npx reportbo-emulator --help` lists the commands', async () => {
    expect(await readdir(join(project, 'node_modules/reportbo-emulator'))).toContain('dist');
    const { stdout } = await run('npx', ['--no-install', 'reportbo-emulator', '--help'], { cwd: project });
    for (const command of ['serve', 'run', 'certs', 'generate', 'schema']) expect(stdout).toContain(command);
  });

  it('lets a script import startEmulator, start on port 0, get health 200 and the dashboard, and stop', async () => {
    await writeFile(
      join(project, 'smoke.mjs'),
      [
        "import { startEmulator } from 'reportbo-emulator';",
        'const emulator = await startEmulator({ port: 0 });',
        "const res = await fetch(emulator.url + '/__admin/health');",
        "const ui = await fetch(emulator.url + '/__admin/ui');",
        "const script = await fetch(emulator.url + '/__admin/ui/dashboard.js');",
        'console.log(JSON.stringify({ port: emulator.port, status: res.status, body: await res.json(),',
        '  ui: [ui.status, (await ui.text()).includes("dashboard.js"), script.status, script.headers.get("content-type")] }));',
        'await emulator.stop();',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['smoke.mjs'], { cwd: project, timeout: 30_000 });
    const result = JSON.parse(stdout) as {
      port: number;
      status: number;
      body: { status: string };
      ui: unknown[];
    };
    expect(result.port).toBeGreaterThan(0);
    // The dashboard ships in the package: page and script served from the installed files.
    expect(result.ui).toEqual([200, true, 200, 'text/javascript; charset=utf-8']);
    expect(result.status).toBe(200);
    expect(result.body.status).toBe('ok');
  });

  it('gives TypeScript users the types of startEmulator from the package entry', async () => {
    const typed = (source: string) => typeCheck(project, 'good.ts', source, USER_TSCONFIG.nodeNext);
    expect(
      await typed(
        "import { startEmulator, type StartedEmulator } from 'reportbo-emulator';\n" +
          "const e: StartedEmulator = await startEmulator({ clock: 'manual', hourMs: 2000 });\n" +
          'const settled: Array<{ state: string }> = await e.waitUntilSettled();\n' +
          'export { settled };\n',
      ),
    ).toBe('');
    expect(
      await typed(
        "import { startEmulator } from 'reportbo-emulator';\nawait startEmulator({ clock: 'sometimes' });\n",
      ),
    ).toContain('"sometimes"');
  });
});

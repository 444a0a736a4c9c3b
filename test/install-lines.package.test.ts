/**
 * The README's git install line, run as written (issue 27 §3) with npm 11 (this machine's) and npm
 * 12 (from the registry; it announces that it wants Node ≥ 22 and runs): a clone of this checkout
 * gets a tag the test creates, and `npm install --save-dev --allow-git=all "git+file://…#<tag>"`
 * installs it into an empty project (npm clones it and runs `prepare`); the result loads with
 * `require` and answers health. The README's tarball line is what test/packed-install.package.test.ts runs.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedTool } from './helpers/packed.js';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The README's git line, as documented (the placeholder URL and tag replaced). */
function readmeGitLine(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = /^npm install --save-dev --allow-git=all "git\+https:[^"]+"$/m.exec(readme)?.[0];
  expect(line, 'README.md has the git install line').toBeDefined();
  return line!.split(' ').slice(0, -1);
}

/** The npm that runs the lines: this machine's (11), or npm 12 installed from the registry. */
async function npmOf(major: 11 | 12): Promise<string[]> {
  if (major === 11) return ['npm'];
  const dir = await cachedTool('npm12', 'npm@12', 'npm/bin/npm-cli.js');
  return [process.execPath, join(dir, 'node_modules/npm/bin/npm-cli.js')];
}

describe('the README install lines', () => {
  it.each([11, 12] as const)(
    'installs from a git URL at a tag with npm %i, running prepare, and the result works',
    async (major) => {
      const dir = await mkdtemp(join(tmpdir(), 'git-install-'));
      dirs.push(dir);
      const npmCommand = await npmOf(major);
      const version = (await run(npmCommand[0]!, [...npmCommand.slice(1), '--version'])).stdout.trim();
      expect(version.split('.')[0]).toBe(String(major));
      const clone = join(dir, 'reportbo-emulator');
      // The committed state of this checkout, as a user's git host would serve it.
      await run('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
      await run('git', ['-C', clone, 'tag', 'v0.0.0-install-test']);
      const project = join(dir, 'project');
      await mkdir(project);
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'project', private: true }));
      const [npm, ...args] = readmeGitLine();
      expect(npm).toBe('npm');
      const installed = await run(
        npmCommand[0]!,
        [
          ...npmCommand.slice(1),
          ...args,
          `git+file://${clone}#v0.0.0-install-test`,
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
        ],
        { cwd: project, timeout: 600_000 },
      );
      expect(installed.stderr).not.toContain('EALLOWGIT');
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      };
      expect(manifest.devDependencies['reportbo-emulator']).toContain('#v0.0.0-install-test');
      const script = `const { startEmulator } = require('reportbo-emulator');
startEmulator().then(async (e) => {
  const health = await (await fetch(e.url + '/__admin/health')).json();
  console.log(require.resolve('reportbo-emulator').endsWith('index.cjs'), health.status);
  await e.stop();
});`;
      const { stdout } = await run(process.execPath, ['-e', script], { cwd: project, timeout: 60_000 });
      expect(stdout.trim()).toBe('true ok');
    },
    1_200_000,
  );
});

/**
 * The README's git install line, run as written (issue 27 §3): a clone of this checkout gets a tag
 * the test creates, and `npm install --save-dev --allow-git=all "git+file://…#<tag>"` installs it
 * into an empty project (npm clones it and runs `prepare`); the result loads with `require` and
 * `import` and answers health. The README's tarball line is what test/packed-install.package.test.ts runs.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The README's git line, as documented (the placeholder URL and tag replaced). */
function readmeGitLine(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = /^npm install --save-dev --allow-git=all "git\+https:[^"]+"$/m.exec(readme)?.[0];
  expect(line, 'README.md has the git install line').toBeDefined();
  return line!.split(' ').slice(0, -1);
}

describe('the README install lines', () => {
  it('installs from a git URL at a tag, running prepare, and the result works', async () => {
    dir = await mkdtemp(join(tmpdir(), 'git-install-'));
    const clone = join(dir, 'reportbo-emulator');
    // The committed state of this checkout, as a user's git host would serve it.
    await run('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
    await run('git', ['-C', clone, 'tag', 'v0.0.0-install-test']);
    const project = join(dir, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'project', private: true }));
    const [npm, ...args] = readmeGitLine();
    const installed = await run(
      npm!,
      [...args, `git+file://${clone}#v0.0.0-install-test`, '--prefer-offline', '--no-audit', '--no-fund'],
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
  }, 900_000);
});

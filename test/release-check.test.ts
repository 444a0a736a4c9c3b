/**
 * scripts/release-check.mjs, the release workflow's gate, against crafted checkouts (two
 * package.json files and a CHANGELOG.md): a stable tag, a prerelease, a missing section, unreleased
 * content, a version mismatch and a tag that is no version (issue 27 §2, docs/releasing.md).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const GATE = new URL('../scripts/release-check.mjs', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const HEAD = '# Changelog\n\nThe format follows Keep a Changelog.\n\n## Versioning rule\n\nSemVer.\n\n';

/** A checkout with both packages at `version` and this CHANGELOG.md. */
async function checkout(version: string, changelog: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'release-check-'));
  dirs.push(dir);
  await mkdir(join(dir, 'packages/testcontainers'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'reportbo-emulator', version }));
  await writeFile(
    join(dir, 'packages/testcontainers/package.json'),
    JSON.stringify({ name: 'reportbo-emulator-testcontainers', version }),
  );
  await writeFile(join(dir, 'CHANGELOG.md'), HEAD + changelog);
  return dir;
}

/** The gate's exit code, output, and what it wrote to $GITHUB_OUTPUT. */
async function gate(dir: string, tag: string) {
  const output = join(dir, 'github-output');
  await writeFile(output, '');
  const answer = await run(process.execPath, [GATE, tag, '--root', dir], {
    env: { ...process.env, GITHUB_OUTPUT: output },
  }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  return {
    code: answer.code,
    stdout: answer.stdout,
    stderr: answer.stderr,
    output: await readFile(output, 'utf8'),
  };
}

describe('release-check', () => {
  it('passes a stable tag whose section exists while [Unreleased] is empty, for the dist-tag latest', async () => {
    const dir = await checkout(
      '1.2.3',
      '## [Unreleased]\n\n## [1.2.3] - 2026-12-01\n\n### Added\n\n- A thing.\n',
    );
    const result = await gate(dir, 'v1.2.3');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('npm dist-tag latest');
    expect(result.output).toBe('version=1.2.3\ndist-tag=latest\nprerelease=false\n');
  });

  it('passes a prerelease with its own section, for the dist-tag next', async () => {
    const dir = await checkout(
      '1.3.0-rc.1',
      '## [Unreleased]\n\n### Added\n\n## [1.3.0-rc.1] - 2026-12-02\n\n- Candidate.\n\n## [1.2.3] - 2026-12-01\n\n- A thing.\n',
    );
    const result = await gate(dir, 'v1.3.0-rc.1');
    expect(result.code, result.stderr).toBe(0);
    expect(result.output).toBe('version=1.3.0-rc.1\ndist-tag=next\nprerelease=true\n');
  });

  it('refuses a tag while [Unreleased] holds entries, though the section exists', async () => {
    const dir = await checkout(
      '0.1.0',
      '## [Unreleased]\n\n### Added\n\n- Work that is not released yet,\n  over two lines.\n- More work.\n\n## [0.1.0] - 2026-11-24\n\n- First.\n',
    );
    const result = await gate(dir, 'v0.1.0');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `CHANGELOG.md's [Unreleased] section still holds 2 entries (first: "- Work that is not released yet,")`,
    );
    expect(result.output).toBe('');
  });

  it('refuses a tag whose version has no section, stable or prerelease', async () => {
    const dir = await checkout('2.0.0', '## [Unreleased]\n\n## [1.2.3] - 2026-12-01\n\n- A thing.\n');
    const stable = await gate(dir, 'v2.0.0');
    expect(stable.code).toBe(1);
    expect(stable.stderr).toContain('CHANGELOG.md has no section "## [2.0.0] - YYYY-MM-DD"');
    const pre = await checkout('2.0.0-beta.2', '## [Unreleased]\n\n## [2.0.0] - 2026-12-01\n\n- A thing.\n');
    const refused = await gate(pre, 'v2.0.0-beta.2');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no section "## [2.0.0-beta.2] - YYYY-MM-DD"');
  });

  it('refuses a tag that the packages do not say, or that is not a version', async () => {
    const dir = await checkout('1.2.3', '## [Unreleased]\n\n## [1.2.4] - 2026-12-01\n\n- A thing.\n');
    const mismatch = await gate(dir, 'v1.2.4');
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('package.json says version 1.2.3, the tag says 1.2.4');
    expect(mismatch.stderr).toContain('packages/testcontainers/package.json says version 1.2.3');
    const notVersion = await gate(dir, 'release-1');
    expect(notVersion.code).toBe(1);
    expect(notVersion.stderr).toContain('the tag "release-1" is not a version tag');
  });
});

/**
 * The release pipeline's files (decision 0060): every workflow passes @action-validator/cli (the
 * schema of GitHub workflow files), CI runs what .ci/run runs, the release publishes both npm
 * packages with provenance and both images for two platforms with OCI labels and semver tags, and
 * the release gate refuses a tag that does not match the packages and CHANGELOG.md.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const VALIDATOR = join(ROOT, 'node_modules/@action-validator/cli/cli.mjs');
const WORKFLOWS = join(ROOT, '.github/workflows');
const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml'));
const read = (f: string) => readFileSync(join(WORKFLOWS, f), 'utf8');

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  'working-directory'?: string;
}
type Job = {
  steps: Step[];
  permissions?: Record<string, string>;
  strategy?: { matrix: Record<string, unknown> };
};
const jobs = (f: string) => (parseYaml(read(f)) as { jobs: Record<string, Job> }).jobs;

describe('the GitHub workflows', () => {
  it('are ci.yml and release.yml', () => {
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
  });

  for (const file of files) {
    it(`${file} passes @action-validator/cli`, async () => {
      const { stdout, stderr } = await run(process.execPath, [VALIDATOR, join(WORKFLOWS, file)]);
      expect(stdout + stderr).toBe('');
    });
  }

  it('the validator refuses a workflow with a misspelt key (it can fail)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'workflow-'));
    try {
      const broken = join(dir, 'broken.yml');
      await writeFile(broken, read('ci.yml').replace('runs-on:', 'run-on:'));
      const failed = await run(process.execPath, [VALIDATOR, broken]).then(
        () => undefined,
        (err: { code: number }) => err.code,
      );
      expect(failed).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ci.yml runs .ci/run with CI=true and caches the Jest installs', () => {
    const steps = jobs('ci.yml').ci!.steps;
    expect(steps.filter((s) => s.run).map((s) => s.run!.trim())).toEqual(['bash .ci/run']);
    expect(read('ci.yml')).toContain("CI: 'true'");
    expect(steps.find((s) => s.uses?.startsWith('actions/cache@'))?.with?.path).toBe(
      '~/.cache/reportbo-emulator-tests',
    );
  });

  it('release.yml publishes both packages with provenance and both images for amd64 and arm64 with labels and semver tags', () => {
    const release = jobs('release.yml');
    expect(parseYaml(read('release.yml')).on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+*'] } });
    const publishes = release.npm!.steps.filter((s) => s.run?.startsWith('npm publish'));
    expect(publishes.map((s) => [s.run, s['working-directory'] ?? '.'])).toEqual([
      ['npm publish --provenance --access public', '.'],
      ['npm publish --provenance --access public', 'packages/testcontainers'],
    ]);
    expect(release.npm!.permissions).toMatchObject({ 'id-token': 'write' });
    const images = (release.images!.strategy!.matrix.image as Array<{ dockerfile: string }>).map(
      (i) => i.dockerfile,
    );
    expect(images).toEqual(['docker/Dockerfile', 'docker/sample-receiver/Dockerfile']);
    const build = release.images!.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
    expect(build.with).toMatchObject({ platforms: 'linux/amd64,linux/arm64', push: true });
    expect(String(build.with!['build-args'])).toMatch(/VERSION=.*\nREVISION=.*\nSOURCE=/);
    const meta = release.images!.steps.find((s) => s.uses?.startsWith('docker/metadata-action@'))!;
    expect(String(meta.with!.tags)).toContain('type=semver,pattern={{version}}');
    expect(String(meta.with!.labels)).toContain('org.opencontainers.image.licenses=MIT');
    // Every Dockerfile the release builds takes the label arguments.
    for (const dockerfile of images) {
      const text = readFileSync(join(ROOT, dockerfile), 'utf8');
      for (const arg of ['VERSION', 'REVISION', 'SOURCE']) expect(text, dockerfile).toContain(`ARG ${arg}`);
    }
  });

  it('the release gate passes the tag of the current version and refuses another', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const gate = join(ROOT, 'scripts/release-check.mjs');
    await expect(run(process.execPath, [gate, `v${version}`])).resolves.toBeDefined();
    const refused = await run(process.execPath, [gate, 'v99.0.0']).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toContain('package.json says version');
    expect(jobs('release.yml').check!.steps.at(-1)!.run).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable of the workflow, not a template
      'node scripts/release-check.mjs "${GITHUB_REF_NAME}"',
    );
  });

  it('CHANGELOG.md follows Keep a Changelog and writes the versioning rule down', () => {
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain('[Keep a Changelog]');
    expect(changelog).toMatch(/^## Versioning rule$/m);
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    for (const m of changelog.matchAll(/^## \[(\d[^\]]*)\](.*)$/gm))
      expect(m[2]).toMatch(/^ - \d{4}-\d{2}-\d{2}$/);
  });
});

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

  it('every action is at its Node 24 major', () => {
    // The first major of each action whose action.yml says `using: node24`.
    const NODE24: Record<string, number> = {
      'actions/checkout': 5,
      'actions/setup-node': 5,
      'actions/cache': 5,
      'docker/setup-qemu-action': 4,
      'docker/setup-buildx-action': 4,
      'docker/login-action': 4,
      'docker/metadata-action': 6,
      'docker/build-push-action': 7,
    };
    const used = files.flatMap((f) =>
      Object.values(jobs(f)).flatMap((j) => j.steps.flatMap((s) => s.uses ?? [])),
    );
    expect(used.length).toBeGreaterThan(5);
    for (const uses of used) {
      const [name, ref] = uses.split('@') as [string, string];
      expect(NODE24[name], `${uses}: add its Node 24 major to this table`).toBeDefined();
      expect(Number(/^v(\d+)$/.exec(ref)?.[1]), uses).toBeGreaterThanOrEqual(NODE24[name]!);
    }
  });

  it('release.yml publishes by trusted publishing with no token, a prerelease under next, and pushes images only after npm', () => {
    const text = read('release.yml');
    const release = jobs('release.yml');
    expect(parseYaml(text).on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+*'] } });
    // No token anywhere: an NODE_AUTH_TOKEN (even empty) or setup-node's registry-url .npmrc turns
    // npm away from OIDC (ENEEDAUTH).
    expect(JSON.stringify(parseYaml(text))).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN|registry-url/);
    const npm = release.npm!;
    expect(npm.permissions).toMatchObject({ 'id-token': 'write' });
    expect(npm.steps.map((s) => s.run ?? '').join('\n')).toContain('npm install --global "npm@^11.5.1"');
    const publish = npm.steps.find((s) => s.run?.includes('npm publish'))! as Step & {
      env: Record<string, string>;
    };
    expect(publish.run).toContain('npm publish $provenance --access public --tag "$DIST_TAG"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
    expect(publish.env.DIST_TAG).toBe('${{ needs.check.outputs.dist-tag }}');
    // No half release: images build (unpushed) before npm publishes; the push needs npm.
    const needs = (job: string) => (parseYaml(text).jobs[job] as { needs: string | string[] }).needs;
    expect(needs('images')).toBe('check');
    expect(needs('npm')).toEqual(['check', 'images']);
    expect(needs('push')).toEqual(['check', 'npm']);
    const built = release.images!.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
    expect(built.with).toMatchObject({ platforms: 'linux/amd64,linux/arm64', push: false });
    const pushed = release.push!.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
    expect(pushed.with).toMatchObject({ platforms: 'linux/amd64,linux/arm64', push: true });
    expect(String(pushed.with!['build-args'])).toMatch(/VERSION=.*\nREVISION=.*\nSOURCE=/);
    expect(pushed.with!['build-args']).toBe(built.with!['build-args']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
    expect(pushed.with!.annotations).toBe('${{ steps.meta.outputs.annotations }}');
    const meta = release.push!.steps.find((s) => s.uses?.startsWith('docker/metadata-action@'))!;
    expect(String(meta.with!.tags)).toContain('type=semver,pattern={{version}}');
    expect(String(meta.with!.annotations)).toContain('org.opencontainers.image.description=');
    expect(String(meta.with!.labels)).toContain('org.opencontainers.image.licenses=MIT');
    const images = (release.push!.strategy!.matrix.image as Array<{ dockerfile: string }>).map(
      (i) => i.dockerfile,
    );
    expect(images).toEqual(['docker/Dockerfile', 'docker/sample-receiver/Dockerfile']);
    for (const dockerfile of images) {
      const dockerText = readFileSync(join(ROOT, dockerfile), 'utf8');
      for (const arg of ['VERSION', 'REVISION', 'SOURCE'])
        expect(dockerText, dockerfile).toContain(`ARG ${arg}`);
    }
  });

  it("the publish step skips provenance on a private repository with a notice, and passes the gate's dist-tag", async () => {
    const publish = jobs('release.yml').npm!.steps.find((s) => s.run?.includes('npm publish'))!;
    const dir = await mkdtemp(join(tmpdir(), 'publish-'));
    try {
      // npm itself cannot publish from here: a stand-in records the arguments it was given.
      // `npm view` answers as the registry would for a version not published yet, unless PUBLISHED names it.
      await writeFile(
        join(dir, 'npm'),
        '#!/bin/sh\nif [ "$1" = view ]; then case " $PUBLISHED " in *" $2 "*) echo x; exit 0;; esac; exit 1; fi\n' +
          'echo "npm $* (in $(basename "$PWD"))"\n',
        { mode: 0o755 },
      );
      const runStep = (env: Record<string, string>) =>
        run('bash', ['-e', '-c', publish.run!], {
          cwd: ROOT,
          env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, ...env },
        });
      const secret = await runStep({ DIST_TAG: 'next', PRIVATE_REPOSITORY: 'true' });
      expect(secret.stdout).toContain('::notice title=Provenance skipped::');
      expect(secret.stdout).toContain(
        `npm publish --access public --tag next (in ${ROOT.split('/').at(-1)})`,
      );
      expect(secret.stdout).toContain('npm publish --access public --tag next (in testcontainers)');
      const open = await runStep({ DIST_TAG: 'latest', PRIVATE_REPOSITORY: 'false' });
      expect(open.stdout).not.toContain('Provenance skipped');
      expect(open.stdout.match(/npm publish --provenance --access public --tag latest/g)).toHaveLength(2);
      // A re-run after the first package went out publishes only the second.
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      const rerun = await runStep({
        DIST_TAG: 'latest',
        PRIVATE_REPOSITORY: 'false',
        PUBLISHED: `reportbo-emulator@${version}`,
      });
      expect(rerun.stdout).toContain(
        `::notice title=Already published::reportbo-emulator@${version} is already on npm`,
      );
      expect(rerun.stdout.match(/npm publish/g)).toHaveLength(1);
      expect(rerun.stdout).toContain('(in testcontainers)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the Dockerfile compiles on the build platform and copies the result: no npm under QEMU', () => {
    const text = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
    const stages = text.split(/^FROM /m).slice(1);
    expect(stages[0]).toMatch(/^--platform=\$\{BUILDPLATFORM:-linux\/amd64\} node:\S+ AS build/);
    expect(stages.at(-1)).not.toMatch(/^RUN .*npm (ci|install)/m);
    expect(stages.at(-1)).toContain('COPY --from=build /prod/node_modules ./node_modules');
  });

  it('the release gate refuses the current version while [Unreleased] holds entries (v0.1.0 today)', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    const unreleased = changelog.split(/^## \[Unreleased\]$/m)[1]!.split(/^## /m)[0]!;
    const gate = join(ROOT, 'scripts/release-check.mjs');
    const answer = await run(process.execPath, [gate, `v${version}`]).catch(
      (err: { code: number; stderr: string }) => err,
    );
    if (/^- /m.test(unreleased)) {
      expect(answer).toMatchObject({ code: 1 });
      expect((answer as { stderr: string }).stderr).toContain(
        "CHANGELOG.md's [Unreleased] section still holds",
      );
    } else {
      expect(answer).not.toHaveProperty('code');
    }
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

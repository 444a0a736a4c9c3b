/**
 * Runs the CI recipes of docs/ci.md as written, so they cannot drift from the code. A ```yaml block
 * right after `<!-- ci-recipe -->` is a GitHub Actions workflow (`jobs:`) or a GitLab CI job; its
 * `run:` steps or `script:` lines run one by one with bash in a fresh folder, its services start
 * first. A ```yaml block right after `<!-- ci-file: PATH -->` is written to PATH in that folder.
 * A step or entry of one command runs as that command; one of several lines (a bounded wait loop)
 * runs as one bash script, as the CI system runs it.
 *
 * Differences from a CI runner, and only these:
 * - what the runner provides is not run: `npm ci`, `npm test` (your own suite), `docker login`,
 *   `docker logs`, `uses:` steps;
 * - `npx reportbo-emulator` runs the checkout's bin; `./start-my-receiver` (your receiver) is the
 *   sample receiver, expecting the ApiKey of the example scenario;
 * - a service container or `docker run -d` of the image runs the image's entrypoint with the same
 *   command and environment (container paths mapped to the folder), as test/docker-equivalent does;
 *   a `docker` on the PATH answers `docker inspect -f '{{.State.Running}}' NAME` and
 *   `docker logs [--tail N] NAME` for such a container (its process and its output);
 * - ports 8080 and 8443 become free ports, and a GitLab service alias becomes 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { BIN, ROOT } from './helpers/cli.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { mapStrings, readImageSpec } from './helpers/docker-files.js';
import { freePort } from './helpers/ports.js';
import { type Started, start } from './helpers/processes.js';

const RECEIVER = join(ROOT, 'docker/sample-receiver/server.js');
const CI_MD = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
const image = readImageSpec(join(ROOT, 'docker/Dockerfile'));
/** The ApiKey the example scenario's credential sends (docs/ci.md "A scenario for your receiver"). */
const EXAMPLE_API_KEY = 'ci-key';

interface Service {
  alias: string;
  env: Record<string, string>;
  command?: string[];
}
interface Recipe {
  title: string;
  services: Service[];
  commands: string[];
  /** The job's own environment (GitHub `env:` of the job, GitLab `variables:`). */
  env: Record<string, string>;
}

/** The made-up value a recipe's `${{ secrets.NAME }}` gets here. */
const secret = (name: string) => `test-secret-${name.toLowerCase()}`;

/** The yaml blocks that follow a marker, with the marker's argument. */
function blocksAfter(marker: string, doc = CI_MD): Array<{ arg: string; text: string }> {
  const re = new RegExp(`<!-- ${marker}(?::\\s*(\\S+))? -->\\n\`\`\`yaml\\n([\\s\\S]*?)\`\`\``, 'g');
  return [...doc.matchAll(re)].map((m) => ({ arg: m[1] ?? '', text: m[2]! }));
}

/**
 * A run step or script entry as the commands a CI system runs: continuation lines joined, comments
 * dropped; a block of several lines stays one script.
 */
function commandsOf(script: string): string[] {
  const lines = script
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return lines.length <= 1 ? lines.map((l) => l.trim()) : [lines.join('\n')];
}

function recipes(doc = CI_MD): Recipe[] {
  return blocksAfter('ci-recipe', doc).flatMap(({ text }) => {
    const doc = parseYaml(text) as Record<string, unknown>;
    if (doc.jobs) {
      return Object.entries(doc.jobs as Record<string, Record<string, unknown>>).map(([name, job]) => ({
        title: `GitHub Actions job ${name}`,
        services: Object.entries((job.services ?? {}) as Record<string, Record<string, unknown>>).map(
          ([alias, s]) => ({ alias, env: stringify(s.env) }),
        ),
        env: stringify(job.env),
        commands: ((job.steps ?? []) as Array<{ run?: string }>).flatMap((s) =>
          s.run ? commandsOf(s.run) : [],
        ),
      }));
    }
    return Object.entries(doc as Record<string, Record<string, unknown>>).map(([name, job]) => ({
      title: `GitLab CI job ${name}`,
      services: ((job.services ?? []) as Array<Record<string, unknown>>).map((s) => ({
        alias: String(s.alias ?? s.name),
        env: stringify({ ...stringify(job.variables), ...stringify(s.variables) }),
        ...(s.command ? { command: s.command as string[] } : {}),
      })),
      commands: ((job.script ?? []) as string[]).flatMap(commandsOf),
      env: stringify(job.variables),
    }));
  });
}

function stringify(value: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries((value ?? {}) as object).map(([k, v]) => [
      k,
      String(v).replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, (_m, name: string) => secret(name)),
    ]),
  );
}

const PROVIDED_BY_CI = /^(npm ci\b|npm test\b|docker (logs|login)\b|echo .*\|\s*docker login\b)/;

/** Splits a `docker run` line into words, honouring double and single quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

const dirs: string[] = [];
/** Process groups of the commands run (a script's background jobs live in its group). */
const groups: number[] = [];
afterAll(async () => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/**
 * `docker inspect -f '{{.State.Running}}' NAME`, `docker logs [--tail N] NAME` and `docker rm -f
 * NAME` (stops it) for the containers this test runs as processes (their pid and output under
 * .containers/).
 */
const DOCKER_SHIM = `#!/usr/bin/env bash
dir="$(dirname "$0")/../.containers"
case "$1" in
  inspect) name="\${@: -1}"; if kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then echo true; else echo false; fi ;;
  logs) name="\${@: -1}"; if [ "$2" = --tail ]; then tail -n "$3" "$dir/$name.log"; else cat "$dir/$name.log"; fi ;;
  rm) name="\${@: -1}"; kill "$(cat "$dir/$name.pid")" 2>/dev/null; rm -f "$dir/$name.pid"; echo "$name" ;;
  *) echo "docker shim of test/ci-recipes.test.ts: $1 is not emulated" >&2; exit 2 ;;
esac
`;

/** Runs one command with bash in its own process group; rejects with its output when it fails. */
function bash(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = WAIT_DEADLINE_MS,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    groups.push(child.pid!);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(Object.assign(new Error(`exit ${code ?? signal}`), { stdout: out, stderr: err }));
    });
  });
}

/**
 * Runs one recipe in a fresh folder on free ports of its own (recipes run side by side); answers
 * that folder, the emulator's URL and what each command printed.
 */
async function runRecipe(
  recipe: Recipe,
  commandLimitMs = WAIT_DEADLINE_MS,
): Promise<{ cwd: string; emulatorUrl: string; ran: Map<string, string> }> {
  const ran = new Map<string, string>();
  const cwd = await mkdtemp(join(tmpdir(), 'ci-recipe-'));
  dirs.push(cwd);
  await mkdir(join(cwd, '.bin'));
  await mkdir(join(cwd, '.containers'));
  await writeFile(join(cwd, '.bin/docker'), DOCKER_SHIM);
  await chmod(join(cwd, '.bin/docker'), 0o755);
  const ports = { emulator: await freePort(), receiver: await freePort() };
  const aliases = recipe.services.map((s) => s.alias);
  const local = (text: string) => {
    let out = text.replace(/\b8080\b/g, String(ports.emulator)).replace(/\b8443\b/g, String(ports.receiver));
    for (const alias of aliases) out = out.replaceAll(`//${alias}:`, '//127.0.0.1:');
    return out
      .replaceAll('npx reportbo-emulator', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`)
      .replaceAll('./start-my-receiver', `${JSON.stringify(process.execPath)} ${JSON.stringify(RECEIVER)}`);
  };
  for (const { arg, text } of blocksAfter('ci-file')) {
    await mkdir(dirname(join(cwd, arg)), { recursive: true });
    await writeFile(join(cwd, arg), local(text));
  }
  // The emulator's default port 8080 is a free port here, as in the commands.
  // The sample receiver standing in for yours expects the example scenario's ApiKey, unless the
  // recipe sets RECEIVER_API_KEY itself (that every variable a recipe reads is set: below).
  const env = {
    RECEIVER_API_KEY: EXAMPLE_API_KEY,
    ...recipe.env,
    RECEIVER_OUT: join(cwd, 'received'),
    REPORTBO_PORT: String(ports.emulator),
  };
  /** The image as a process: its entrypoint, the given command (or its CMD) and environment. */
  const emulatorProcess = (command: string[] | undefined, vars: Record<string, string>, paths = {}) => {
    const argv = mapStrings([...image.entrypoint, ...(command ?? image.cmd)], {
      '/app/': ROOT,
      ...paths,
    });
    const all = {
      ...mapStrings({ ...image.env, ...vars }, paths),
      REPORTBO_URL_FILE: join(cwd, 'emulator.url'),
      REPORTBO_HOST: '127.0.0.1',
      REPORTBO_PORT: String(ports.emulator),
    };
    return start(process.execPath, argv.slice(1), all, cwd);
  };
  const waitListening = async (p: Started, what: string) => {
    await p.waitFor(/listening on/).catch((err: Error) => {
      throw new Error(`${recipe.title}: ${what} did not start: ${err.message}`);
    });
  };

  for (const service of recipe.services)
    await waitListening(emulatorProcess(service.command, service.env), `service ${service.alias}`);
  for (const command of recipe.commands) {
    if (PROVIDED_BY_CI.test(command)) continue;
    if (/^docker run\b/.test(command)) {
      // `docker run -d` returns once the container exists: the recipe's own wait loop follows.
      const w = words(command.replace(/\$PWD/g, cwd)).slice(2);
      const vars: Record<string, string> = {};
      const paths: Record<string, string> = {};
      let name = 'container';
      let i = 0;
      for (; i < w.length && w[i]!.startsWith('-'); i++) {
        if (w[i] === '-d' || w[i] === '--rm') continue;
        const value = w[++i]!;
        if (w[i - 1] === '--name') name = value;
        if (w[i - 1] === '-e') vars[value.split('=')[0]!] = value.slice(value.indexOf('=') + 1);
        if (w[i - 1] === '-v') {
          const [host, container] = value.split(':') as [string, string];
          paths[container] = host;
        }
      }
      const rest = w.slice(i + 1);
      const container = emulatorProcess(rest.length ? rest : undefined, vars, paths);
      const log = createWriteStream(join(cwd, `.containers/${name}.log`));
      container.child.stdout!.pipe(log);
      container.child.stderr!.pipe(log);
      await writeFile(join(cwd, `.containers/${name}.pid`), String(container.child.pid));
      continue;
    }
    const runnable = local(command);
    if (runnable.endsWith('&') && !runnable.includes('\n')) {
      const p = start('bash', ['-c', `exec ${runnable.slice(0, -1).trim()}`], env, cwd);
      await waitListening(p, command);
      continue;
    }
    const stdout = await bash(
      runnable,
      cwd,
      {
        ...process.env,
        ...env,
        PATH: `${join(cwd, '.bin')}:${process.env.PATH}`,
      },
      commandLimitMs,
    ).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(
        `${recipe.title}: \`${command}\` failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`,
      );
    });
    ran.set(command, stdout);
  }
  return { cwd, emulatorUrl: `http://127.0.0.1:${ports.emulator}`, ran };
}

const all = recipes();

// Each recipe runs in a folder of its own on free ports of its own, and waits on child processes far
// more than it computes: the recipes run side by side.
describe.concurrent('the CI recipes of docs/ci.md, run as written', () => {
  it('has the GitHub Actions and GitLab CI recipes for SDK tests and receiver tests', () => {
    expect(all.map((r) => r.title)).toEqual([
      'GitHub Actions job sdk-tests',
      'GitHub Actions job receiver-tests',
      'GitLab CI job sdk-tests',
      'GitLab CI job receiver-tests',
      'GitHub Actions job sdk-tests-with-token',
      'GitHub Actions job receiver-conformance',
      'GitLab CI job receiver-conformance',
    ]);
    expect(blocksAfter('ci-file').map((b) => b.arg)).toEqual(['tests/reportbo/receiver.yaml']);
  });

  for (const recipe of all) {
    it(`${recipe.title}: every command exits 0`, async () => {
      const { cwd, emulatorUrl, ran } = await runRecipe(recipe);
      const commands = [...ran.keys()];
      expect(commands.length).toBeGreaterThan(0);
      if (recipe.commands.some((c) => c.includes('--junit reports/reportbo.xml'))) {
        // reports/ did not exist: run made it, and the report holds passing testcases only.
        const xml = await readFile(join(cwd, 'reports/reportbo.xml'), 'utf8');
        expect(XMLValidator.validate(xml)).toBe(true);
        const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
        expect(doc.testsuites).toMatchObject({ failures: '0', errors: '0' });
        expect(Number(doc.testsuites.tests)).toBeGreaterThan(0);
      }
      const journal = commands.find((k) => k.includes('/__admin/requests'));
      if (journal) expect(JSON.parse(ran.get(journal)!)).toMatchObject({ requests: expect.any(Array) });
      // A service given an admin token refuses the admin API without it (health stays open).
      const token = recipe.services.find((s) => s.env.REPORTBO_ADMIN_TOKEN)?.env.REPORTBO_ADMIN_TOKEN;
      if (token) {
        expect(token).toBe(secret('REPORTBO_ADMIN_TOKEN'));
        expect((await fetch(`${emulatorUrl}/__admin/requests`)).status).toBe(401);
        expect((await fetch(`${emulatorUrl}/__admin/health`)).status).toBe(200);
      }
      // A service given its user by REPORTBO_USERS alone answers a token for it.
      const users = recipe.services.find((s) => s.env.REPORTBO_USERS)?.env.REPORTBO_USERS;
      if (users) {
        const [user] = JSON.parse(users) as Array<{ username: string; password: string; idWeb: number }>;
        const res = await fetch(`${emulatorUrl}/api/1.7/AuthService.json/GetAccessToken`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Username: user!.username, Password: user!.password }),
        });
        expect(await res.json()).toMatchObject({
          Token: expect.any(String),
          IDWeb: user!.idWeb,
          TransactionCode: null,
        });
      }
    });
  }

  it('every service sets REPORTBO_PORT, which outranks a PORT that CI variables may carry', () => {
    const services = all.flatMap((r) => r.services);
    expect(services.length).toBe(3);
    for (const service of services) expect(service.env.REPORTBO_PORT).toBe('8080');
  });

  it('removes every container a recipe starts with docker run -d --name, in a step that runs even after a failure', () => {
    const doc = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
    const blocks = [...doc.matchAll(/<!-- ci-recipe -->\n```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    let started = 0;
    for (const block of blocks) {
      for (const [, name] of block.matchAll(/docker run -d --name (\S+)/g)) {
        started++;
        // GitHub: an `if: always()` step; GitLab: `after_script`, which runs whatever the script did.
        const removed = new RegExp(
          `(if: always\\(\\)\\s+run: docker rm -f ${name}\\b)|(after_script:[\\s\\S]*docker rm -f ${name}\\b)`,
        );
        expect(block, `docker run --name ${name}`).toMatch(removed);
      }
    }
    expect(started).toBeGreaterThan(0);
  });

  it('has no unbounded wait loop left', () => {
    expect(CI_MD).not.toMatch(/^\s*(- (run: )?)?until curl/m);
  });

  describe('the wait steps of docs/ci.md fail the job when the emulator exits at once', () => {
    // Each recipe with an emulator that refuses its settings and exits at once (an invalid clock).
    // Here, and only here, the harness kills a command after 30 s, half the recipes' 60 s bound (the
    // bound is what is tested): the wait must end on its own, because the emulator stopped (it
    // refuses its settings in a second or two), and print its last log lines.
    const HALF_THE_WAIT_BOUND_MS = 30_000;
    const variants = [
      {
        title: 'GitHub Actions job receiver-tests',
        broken: CI_MD.replace('-e REPORTBO_CLOCK=manual', '-e REPORTBO_CLOCK=sometimes'),
        says: 'reportbo did not answer /__admin/health; its last log lines:',
      },
      {
        title: 'GitLab CI job receiver-tests',
        // The recipe's own line (indented in its YAML), not the prose that quotes it for GitHub.
        broken: CI_MD.replace(
          '      npx reportbo-emulator serve --clock manual --ca-file certs/ca.pem > reportbo.log',
          '      npx reportbo-emulator serve --clock sometimes --ca-file certs/ca.pem > reportbo.log',
        ),
        says: 'the emulator did not answer /__admin/health; its last log lines:',
      },
    ];
    for (const { title, broken, says } of variants) {
      it(`${title}: the wait step fails with the emulator's own message`, async () => {
        expect(broken).not.toBe(CI_MD);
        const recipe = recipes(broken).find((r) => r.title === title)!;
        const failure = await runRecipe(recipe, HALF_THE_WAIT_BOUND_MS).then(
          () => undefined,
          (err: Error) => err.message,
        );
        expect(failure).toContain('failed: exit 1');
        expect(failure).toContain(says);
        // The emulator's start-up message, as its log ends.
        expect(failure).toMatch(
          /^reportbo-emulator: Setting .*clock.*expected one of "real"\|"compressed"\|"manual"/im,
        );
      });
    }
  });

  describe('sdk-tests-with-token', () => {
    it('fails the job at its service, naming the variable, when REPORTBO_ADMIN_TOKEN is unset (an empty string)', async () => {
      // GitHub gives an unset secret as the empty string.
      const unset = CI_MD.replace(/\$\{\{ secrets\.REPORTBO_ADMIN_TOKEN \}\}/g, "''");
      const recipe = recipes(unset).find((r) => r.title === 'GitHub Actions job sdk-tests-with-token')!;
      expect(recipe.env.REPORTBO_ADMIN_TOKEN).toBe('');
      const failure = await runRecipe(recipe).then(
        () => undefined,
        (err: Error) => err.message,
      );
      // The service refuses the empty token itself (decision 0208): the job fails before its steps.
      expect(failure).toContain('service reportbo did not start');
      expect(failure).toMatch(/Setting environment variable REPORTBO_ADMIN_TOKEN: expected a token/);
    });
  });
});

/** What a job of docs/ci.md runs, in order, and what runs whatever happened (cleanup). */
interface JobText {
  title: string;
  /** Each `run:` step or `script:` entry, in order. */
  commands: string[];
  /** `if: always()` steps and `after_script` entries. */
  always: string[];
  /** Service containers: GitHub waits for their HEALTHCHECK when `options` bound it; GitLab does not. */
  services: Array<{ alias: string; githubOptions?: string }>;
  /** Variables the job sets for its commands: GitHub job and step `env:`, GitLab `variables:`. */
  env: string[];
}

/** Every job of every yaml block of `doc` (GitHub `jobs:` or GitLab jobs with a `script`). */
function jobsOf(doc: string): JobText[] {
  const out: JobText[] = [];
  for (const [, text] of doc.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const parsed = parseYaml(text!) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    const top = parsed as Record<string, unknown>;
    if (top.jobs) {
      for (const [name, job] of Object.entries(top.jobs as Record<string, Record<string, unknown>>)) {
        const steps = (job.steps ?? []) as Array<{ run?: string; if?: string; env?: object }>;
        out.push({
          env: [job.env, ...steps.map((s) => s.env)].flatMap((e) => Object.keys(e ?? {})),
          title: `GitHub Actions job ${name}`,
          commands: steps.filter((s) => s.run && s.if !== 'always()').map((s) => s.run!),
          always: steps.filter((s) => s.run && s.if === 'always()').map((s) => s.run!),
          services: Object.entries((job.services ?? {}) as Record<string, { options?: string }>).map(
            ([alias, s]) => ({ alias, githubOptions: s.options ?? '' }),
          ),
        });
      }
      continue;
    }
    for (const [name, job] of Object.entries(top as Record<string, Record<string, unknown>>)) {
      if (!job || typeof job !== 'object' || !Array.isArray(job.script)) continue;
      out.push({
        env: Object.keys((job.variables ?? {}) as object),
        title: `GitLab CI job ${name}`,
        commands: job.script as string[],
        always: (job.after_script ?? []) as string[],
        services: ((job.services ?? []) as Array<Record<string, unknown>>).map((s) => ({
          alias: String(s.alias ?? s.name),
        })),
      });
    }
  }
  return out;
}

const BOUNDED = /\btimeout \d+\b|\$\(seq 1 \d+\)/;

/**
 * The traps of issue 27 §5 in the jobs of `doc`: a service (the emulator as a service container, a
 * `docker run -d` or a background `serve`; your receiver started in the background) used before a
 * bounded wait for it, and anything started that no `if: always()` step or `after_script` stops.
 */
function trapsOf(doc: string): string[] {
  const traps: string[] = [];
  for (const job of jobsOf(doc)) {
    const { commands, title } = job;
    const cleanup = job.always.join('\n');
    /** Index of the first command at or after `from` that waits, bounded, for `url`. */
    const waitFor = (url: RegExp, from: number) =>
      commands.findIndex((c, i) => i >= from && BOUNDED.test(c) && /\bcurl\b/.test(c) && url.test(c));
    const firstUse = (use: RegExp, from: number) => {
      const i = commands.findIndex((c, j) => j > from && use.test(c));
      return i === -1 ? commands.length : i;
    };
    const EMULATOR_USE = /npm test|reportbo-emulator run\b|curl[^\n]*:8080\/__admin\/(?!health)/;
    const RECEIVER_USE = /reportbo-emulator (run|verify)\b|\bverify --receiver/;
    const emulatorHealth = (host: string) => new RegExp(`${host}:8080/__admin/health`);

    for (const service of job.services) {
      if (service.githubOptions !== undefined) {
        if (!/--health-retries \d+/.test(service.githubOptions))
          traps.push(`${title}: service ${service.alias} has no --health-retries bound`);
        continue;
      }
      const wait = waitFor(emulatorHealth(`(${service.alias}|localhost)`), 0);
      if (wait === -1 || wait > firstUse(EMULATOR_USE, -1))
        traps.push(`${title}: service ${service.alias} is used before a bounded wait for its health`);
    }
    commands.forEach((command, i) => {
      for (const [, name] of command.matchAll(/docker run -d --name (\S+)/g)) {
        const wait = waitFor(emulatorHealth('localhost'), i + 1);
        if (wait === -1 || wait > firstUse(EMULATOR_USE, i))
          traps.push(`${title}: container ${name} is used before a bounded wait for its health`);
        if (!new RegExp(`docker rm -f ${name}\\b`).test(cleanup))
          traps.push(`${title}: container ${name} is not removed by an always() step or after_script`);
      }
      const lines = command.split('\n');
      lines.forEach((line, l) => {
        if (!/&\s*(echo \$! > \S+\s*)?$/.test(line.trim())) return;
        const what = /start-my-receiver/.test(line)
          ? 'receiver'
          : /reportbo-emulator serve/.test(line)
            ? 'emulator'
            : 'process';
        const pidFile = /echo \$! > (\S+)/.exec(`${line}\n${lines[l + 1] ?? ''}`)?.[1];
        if (!pidFile || !cleanup.includes(`cat ${pidFile}`))
          traps.push(
            `${title}: the background ${what} is not stopped by an always() step or after_script (keep its pid)`,
          );
        const wait =
          what === 'receiver'
            ? waitFor(/https:\/\/localhost:8443/, i + 1)
            : waitFor(emulatorHealth('localhost'), i);
        const use = what === 'receiver' ? RECEIVER_USE : EMULATOR_USE;
        if (wait === -1 || wait > firstUse(use, i))
          traps.push(`${title}: the background ${what} is used before a bounded wait for it`);
      });
    });
  }
  return traps;
}

describe('every job of docs/ci.md (issue 27 §5)', () => {
  it('waits, bounded, for every service it uses and stops whatever it starts', () => {
    const jobs = jobsOf(CI_MD);
    expect(jobs.map((j) => j.title)).toEqual(
      expect.arrayContaining([
        'GitHub Actions job receiver-tests',
        'GitLab CI job receiver-tests',
        'GitHub Actions job receiver-conformance',
        'GitLab CI job receiver-conformance',
      ]),
    );
    expect(trapsOf(CI_MD)).toEqual([]);
  });

  it('finds each trap in a page that has it (the check can fail)', () => {
    const noReceiverWait = CI_MD.replace(
      /( {6}# Your receiver: at most 60 s[^\n]*\n {6}- run: \|\n(?: {10}[^\n]*\n)+)/,
      '',
    );
    expect(noReceiverWait).not.toBe(CI_MD);
    expect(trapsOf(noReceiverWait)).toEqual([
      'GitHub Actions job receiver-tests: the background receiver is used before a bounded wait for it',
    ]);
    const noKill = CI_MD.replace(
      / {2}after_script:\n {4}- kill "\$\(cat receiver.pid\)" 2>\/dev\/null \|\| true\n/,
      '',
    );
    expect(trapsOf(noKill)).toEqual([
      'GitLab CI job receiver-conformance: the background receiver is not stopped by an always() step or after_script (keep its pid)',
    ]);
    const unbounded = CI_MD.replace('timeout 60 bash -c', 'bash -c');
    expect(trapsOf(unbounded)).toEqual([
      'GitLab CI job sdk-tests: service reportbo is used before a bounded wait for its health',
    ]);
    const noRm = CI_MD.replace(/ {6}- if: always\(\)\n {8}run: docker rm -f reportbo\n/, '');
    expect(trapsOf(noRm)).toEqual([
      'GitHub Actions job receiver-tests: container reportbo is not removed by an always() step or after_script',
    ]);
  });
});

/** What the runner or the shell gives every job: GitHub's and GitLab's own variables, HOME, PATH, PWD. */
const PROVIDED_VARIABLES = /^(GITHUB_\w+|RUNNER_\w+|CI_\w+|CI|HOME|PATH|PWD)$/;

/** `JOB: $NAME is never set` for each variable a job's commands read that nothing sets. */
function unsetVariablesOf(doc: string): string[] {
  const problems: string[] = [];
  for (const job of jobsOf(doc)) {
    const script = [...job.commands, ...job.always].join('\n').replace(/\$\{\{[^}]*\}\}/g, '');
    const set = new Set(job.env);
    for (const [, name] of script.matchAll(/(?:^|[\s;(])(?:export\s+)?([A-Za-z_]\w*)=/gm)) set.add(name!);
    for (const [, name] of script.matchAll(/\b(?:for|read)\s+([A-Za-z_]\w*)/g)) set.add(name!);
    const read = new Set([...script.matchAll(/\$\{?([A-Za-z_]\w*)/g)].map((m) => m[1]!));
    for (const name of read)
      if (!set.has(name) && !PROVIDED_VARIABLES.test(name))
        problems.push(`${job.title}: $${name} is never set`);
  }
  return problems;
}

/** Majors of `uses: NAME@vN` in a text, by NAME. */
function actionRefs(text: string): Map<string, Set<string>> {
  const refs = new Map<string, Set<string>>();
  for (const [, name, ref] of text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)@(\S+)/g)) {
    if (!refs.has(name!)) refs.set(name!, new Set());
    refs.get(name!)!.add(ref!);
  }
  return refs;
}

describe('the recipes of docs/ci.md are current and complete (issue 42)', () => {
  const workflows = ['ci.yml', 'release.yml']
    .map((f) => readFileSync(join(ROOT, '.github/workflows', f), 'utf8'))
    .join('\n');

  it('every variable a job reads is set by the job, a step, or the CI system', () => {
    expect(unsetVariablesOf(CI_MD)).toEqual([]);
    // The check can fail: a conformance recipe without its RECEIVER_API_KEY.
    const unset = CI_MD.replace(/ {4}env:\n {6}RECEIVER_API_KEY: ci-key[^\n]*\n/, '');
    expect(unset).not.toBe(CI_MD);
    expect(unsetVariablesOf(unset)).toEqual([
      'GitHub Actions job receiver-conformance: $RECEIVER_API_KEY is never set',
    ]);
  });

  it("uses each action at the version the repository's own workflows use", () => {
    const ours = actionRefs(workflows);
    const documented = actionRefs(CI_MD);
    expect(documented.get('actions/checkout')).toEqual(new Set(['v6']));
    for (const [name, refs] of documented) {
      if (ours.has(name)) expect(refs, name).toEqual(ours.get(name));
    }
  });

  it('runs GitLab jobs on the newest Node line the CI tests, never an older one', () => {
    const majors = [...workflows.matchAll(/node: \[([^\]]+)\]/g)].flatMap((m) =>
      m[1]!.split(',').map((v) => Number.parseInt(v.replace(/['\s]/g, ''), 10)),
    );
    expect(majors.length).toBeGreaterThan(0);
    const newest = Math.max(...majors);
    const images = [...CI_MD.matchAll(/image: node:(\d+)/g)].map((m) => Number(m[1]));
    expect(images.length).toBeGreaterThanOrEqual(3);
    for (const major of images) expect(major).toBe(newest);
  });
});

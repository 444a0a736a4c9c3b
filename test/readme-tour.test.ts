/**
 * Runs the README's quick start and the 60-second tour of docs/tour.md (each between `<!--
 * tour:start -->` and `<!-- tour:end -->`) as written, in a temp directory, and checks each shown
 * output. Each ```sh block holds one command;
 * a ```json or ```text block right after it is what the command prints. Differences from a
 * user's terminal, and only these: `npx reportbo-emulator` runs the checkout's bin directly, the
 * sample receiver's and the scenarios' paths are made absolute, and ports 8080/8443 become free ports.
 * Output rules: JSON is matched as a subset (objects may omit members; arrays keep their length);
 * in JSON strings and text lines `…` stands for anything. Text lines must appear in order.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers/cli.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { freePort } from './helpers/ports.js';
import { start } from './helpers/processes.js';

interface TourStep {
  command: string;
  output?: { lang: 'json' | 'text'; text: string };
}

/** The tour's commands, each with the output block that follows it (if any). */
function tourSteps(file: string): TourStep[] {
  const markdown = readFileSync(join(ROOT, file), 'utf8');
  const begin = markdown.indexOf('<!-- tour:start -->');
  const end = markdown.indexOf('<!-- tour:end -->');
  if (begin < 0 || end < begin) throw new Error(`${file}: tour markers not found`);
  const blocks = [...markdown.slice(begin, end).matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1]!,
    text: m[2]!.trim(),
  }));
  const steps: TourStep[] = [];
  for (const block of blocks) {
    if (block.lang === 'sh') steps.push({ command: block.text });
    else if ((block.lang === 'json' || block.lang === 'text') && steps.length > 0 && !steps.at(-1)!.output)
      steps.at(-1)!.output = { lang: block.lang, text: block.text };
    else throw new Error(`${file} tour: a ${block.lang} block follows no command`);
  }
  return steps;
}

/** The free ports of the tour running now. */
let ports: { emulator: number; receiver: number };

/** What the tour shows on 8080/8443 happens on the free ports of this run. */
function localPorts(text: string): string {
  return text.replaceAll(':8080', `:${ports.emulator}`).replaceAll(':8443', `:${ports.receiver}`);
}

function runnable(command: string): string {
  return localPorts(command)
    .replaceAll('npx reportbo-emulator', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`)
    .replaceAll(
      'node docker/sample-receiver/server.js',
      `${JSON.stringify(process.execPath)} ${join(ROOT, 'docker/sample-receiver/server.js')}`,
    )
    .replaceAll(' scenarios/', ` ${join(ROOT, 'scenarios')}/`);
}

/** Expected JSON with `…` placeholders turned into matchers. */
function withWildcards(value: unknown): unknown {
  if (typeof value === 'string' && value.includes('…')) return expect.stringMatching(pattern(value));
  if (Array.isArray(value)) return value.map(withWildcards);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withWildcards(v)]));
  return value;
}

function pattern(line: string): RegExp {
  const escaped = line.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

function expectOutput(actual: string, shown: NonNullable<TourStep['output']>, command: string): void {
  const expected = localPorts(shown.text);
  if (shown.lang === 'json') {
    let parsed: unknown;
    expect(() => (parsed = JSON.parse(actual)), `${command} printed no JSON: ${actual}`).not.toThrow();
    expect(parsed, command).toMatchObject(withWildcards(JSON.parse(expected)) as object);
    return;
  }
  const lines = actual.split('\n').map((l) => l.trim());
  let from = 0;
  for (const line of expected
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const at = lines.findIndex((l, i) => i >= from && pattern(line).test(l));
    expect(at, `${command}\nshown: ${line}\nactual output:\n${actual}`).toBeGreaterThanOrEqual(0);
    from = at + 1;
  }
}

for (const [file, least] of [
  ['README.md', 4],
  ['docs/tour.md', 20],
] as const) {
  const steps = tourSteps(file);
  let cwd: string;
  describe(`the tour of ${file}`, () => {
    beforeAll(async () => {
      cwd = await mkdtemp(join(tmpdir(), 'readme-tour-'));
      ports = { emulator: await freePort(), receiver: await freePort() };
    });
    afterAll(async () => {
      await rm(cwd, { recursive: true, force: true });
    });

    it('has commands to run, each with an output to check', () => {
      expect(steps.length).toBeGreaterThanOrEqual(least);
      expect(steps.filter((s) => s.output).length).toBe(steps.length);
    });

    for (const [i, step] of steps.entries()) {
      it(`step ${i + 1} prints what ${file} shows: ${step.command.split('\n')[0]!.slice(0, 90)}`, async () => {
        const command = runnable(step.command);
        const longRunning = /^npx reportbo-emulator serve|^node docker\/sample-receiver\/server\.js/.test(
          step.command,
        );
        if (longRunning) {
          const env = { REPORTBO_PORT: String(ports.emulator), RECEIVER_PORT: String(ports.receiver) };
          const started = start('bash', ['-c', `exec ${command}`], env, cwd);
          await started.waitFor(/listening on/);
          if (step.output) expectOutput(started.output(), step.output, step.command);
          return;
        }
        const { stdout } = await promisify(execFile)('bash', ['-c', command], {
          cwd,
          timeout: WAIT_DEADLINE_MS,
        });
        if (step.output) expectOutput(stdout, step.output, step.command);
      });
    }
  });
}

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { writeReport } from '../report/index.js';
import { loadScenarioFile, ScenarioFileError } from '../scenarios/load/loader.js';
import { consoleProgress, formatSummary } from '../scenarios/report/console.js';
import { jsonReport } from '../scenarios/report/json.js';
import { scenarioJunit } from '../scenarios/report/junit.js';
import type { ScenarioResult } from '../scenarios/run/results.js';
import { runScenario } from '../scenarios/run/runner.js';
import type { Scenario } from '../scenarios/schema/index.js';

const SCENARIO_FILE = /\.(ya?ml|json)$/i;

/** Expands directories into their scenario files (sorted), keeping files as given. */
async function expand(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => undefined);
    if (info?.isDirectory()) {
      const names = (await readdir(p)).filter((n) => SCENARIO_FILE.test(n)).sort();
      out.push(...names.map((n) => join(p, n)));
    } else out.push(p);
  }
  return out;
}

/**
 * The `run` command: validates every file first (any invalid file: exit 2, nothing runs), then runs
 * each scenario with progress on stdout, a summary, and the requested report files.
 */
export async function runCommand(
  paths: string[],
  flags: { target?: string; adminToken?: string; junit?: string; json?: string },
  write: (text: string) => void = (t) => process.stdout.write(t),
  writeErr: (text: string) => void = (t) => process.stderr.write(t),
): Promise<number> {
  if (flags.target !== undefined) {
    const problem = targetProblem(flags.target);
    if (problem) {
      writeErr(`reportbo-emulator run: ${problem}\n`);
      return 2;
    }
  }
  const files = await expand(paths);
  if (files.length === 0) {
    writeErr(`reportbo-emulator run: no scenario files (.yaml, .yml, .json) in ${paths.join(', ')}\n`);
    return 2;
  }
  const loaded: Array<{ file: string; scenario: Scenario }> = [];
  const invalid: ScenarioFileError[] = [];
  for (const file of files) {
    try {
      loaded.push({ file, scenario: await loadScenarioFile(file) });
    } catch (err) {
      if (err instanceof ScenarioFileError) invalid.push(err);
      else throw err;
    }
  }
  if (invalid.length > 0) {
    for (const err of invalid) writeErr(`${err.message}\n`);
    writeErr(
      `reportbo-emulator run: ${invalid.length} invalid scenario file${invalid.length === 1 ? '' : 's'}; nothing was run. ` +
        'The format is described in docs/scenarios.md (JSON Schema: docs/scenario.schema.json).\n',
    );
    return 2;
  }
  const listener = consoleProgress(write);
  const results: ScenarioResult[] = [];
  for (const { file, scenario } of loaded)
    results.push(
      await runScenario(file, scenario, {
        ...(flags.target ? { target: flags.target } : {}),
        ...(flags.adminToken ? { adminToken: flags.adminToken } : {}),
        listener,
      }),
    );
  write(formatSummary(results));
  let written = true;
  // A report that cannot be written is said on stderr and fails the run: CI would otherwise read none.
  for (const [flag, file, text] of [
    ['--junit', flags.junit, () => scenarioJunit(results)],
    ['--json', flags.json, () => jsonReport(results)],
  ] as const) {
    if (file === undefined) continue;
    try {
      await writeReport(flag, file, text());
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      writeErr(`reportbo-emulator run: ${err.message}\n`);
      written = false;
    }
  }
  return written && results.every((r) => r.status === 'passed') ? 0 : 1;
}

/** Why `--target` is not a usable emulator URL (undefined when it is). */
export function targetProblem(target: string): string | undefined {
  if (/^https?:\/\//i.test(target)) {
    try {
      new URL(target);
      return undefined;
    } catch {
      return `--target ${target}: not a valid URL; expected e.g. http://localhost:8080.`;
    }
  }
  // `localhost:8080` parses as a URL whose scheme is `localhost:`: say what is missing.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
    return `--target ${target}: the URL has no scheme; add http:// (e.g. --target http://${target}).`;
  return `--target ${target}: expected an http:// or https:// URL of a running emulator (e.g. http://localhost:8080).`;
}

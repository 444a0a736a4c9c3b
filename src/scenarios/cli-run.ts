import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadScenarioFile, ScenarioFileError } from './load/loader.js';
import { consoleProgress, formatSummary } from './report/console.js';
import { jsonReport } from './report/json.js';
import { junitXml } from './report/junit.js';
import type { ScenarioResult } from './run/results.js';
import { runScenario } from './run/runner.js';
import type { Scenario } from './schema/index.js';

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
  flags: { target?: string; junit?: string; json?: string },
  write: (text: string) => void = (t) => process.stdout.write(t),
  writeErr: (text: string) => void = (t) => process.stderr.write(t),
): Promise<number> {
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
      await runScenario(file, scenario, { ...(flags.target ? { target: flags.target } : {}), listener }),
    );
  write(formatSummary(results));
  if (flags.junit) await writeFile(flags.junit, junitXml(results));
  if (flags.json) await writeFile(flags.json, jsonReport(results));
  return results.every((r) => r.status === 'passed') ? 0 : 1;
}

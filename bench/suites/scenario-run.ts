/**
 * `scenario-run`: how long `reportbo-emulator run` takes for a full five-attempt redelivery cycle on
 * the manual clock (scenarios/06-exhausted.yaml): the scenario alone (in this process, a fresh
 * emulator each round) and the whole CLI process. Target: under 2 s per scenario, the figure a test
 * used to assert (decision 0025: durations belong here, never in tests).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadScenarioFile } from '../../dist/scenarios/load/loader.js';
import { runScenario } from '../../dist/scenarios/run/runner.js';
import type { BenchSuite } from '../types.js';
import { fmt, median } from '../types.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILE = join(ROOT, 'scenarios/06-exhausted.yaml');
const BIN = join(ROOT, 'bin/reportbo-emulator.js');
const ROUNDS = 10;
const TARGET_MS = 2_000;

const suite: BenchSuite = {
  name: 'scenario-run',
  title: 'Scenario run: a full five-attempt cycle on the manual clock',
  async run(log) {
    const scenario = await loadScenarioFile(FILE);
    await runScenario(FILE, scenario); // warm-up: loads the server, faker and undici once
    const inProcess: number[] = [];
    const cli: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const result = await runScenario(FILE, scenario);
      if (result.status !== 'passed')
        throw new Error(`06-exhausted did not pass: ${result.error ?? result.status}`);
      inProcess.push(result.durationMs);
      const started = performance.now();
      await promisify(execFile)(process.execPath, [BIN, 'run', FILE]);
      cli.push(performance.now() - started);
      log(`round ${r + 1}: scenario ${fmt(inProcess[r]!)} ms, CLI process ${fmt(cli[r]!)} ms`);
    }
    const max = (v: number[]) => Math.max(...v);
    return [
      `| Measure | Median | Worst of ${ROUNDS} | Target |`,
      '|---|---|---|---|',
      `| scenario (fresh in-process emulator, 5 attempts, 4 batches) | ${fmt(median(inProcess))} ms | ${fmt(max(inProcess))} ms | < ${fmt(TARGET_MS)} ms ${median(inProcess) < TARGET_MS ? '(met)' : '(missed)'} |`,
      `| whole \`reportbo-emulator run scenarios/06-exhausted.yaml\` process | ${fmt(median(cli))} ms | ${fmt(max(cli))} ms | |`,
    ].join('\n');
  },
};

export default suite;

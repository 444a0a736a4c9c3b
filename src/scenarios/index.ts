/** Scenario files: the format (zod schema), the loader, the runner and the reporters. */
export { loadScenarioFile, parseScenario, ScenarioFileError } from './load/loader.js';
export type { ScenarioResult } from './run/results.js';
export { type RunOptions, runScenario } from './run/runner.js';
export { type Scenario, ScenarioSchema, scenarioJsonSchema } from './schema/index.js';

/** Scenario files: the format (zod schema), the loader, the runner and the reporters. */
export {
  formatProblem,
  loadScenarioFile,
  parseScenario,
  ScenarioFileError,
  type ScenarioProblem,
} from './load/loader.js';
export { consoleProgress, formatSummary } from './report/console.js';
export { jsonReport } from './report/json.js';
export { scenarioJunit } from './report/junit.js';
export { type RunSummary, summarize } from './report/summary.js';
export type { ExpectationResult, ScenarioResult, StepResult } from './run/results.js';
export { type RunListener, type RunOptions, runScenario } from './run/runner.js';
export { type Scenario, type ScenarioInput, ScenarioSchema, scenarioJsonSchema } from './schema/index.js';

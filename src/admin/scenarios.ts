import { Hono } from 'hono';
import { NotFoundError } from '../errors.js';

/**
 * Runs the steps of the scenario `serve --scenario FILE` loaded and answers the run's report. The
 * process that loaded the scenario hands it in: the admin API never imports the scenario runner,
 * which itself starts servers that mount this API (no import circle, see test/import-cycles.test.ts).
 */
export type ScenarioRunner = () => Promise<object>;

/**
 * `POST /__admin/scenarios/run`: runs the steps of the scenario `serve --scenario FILE` loaded
 * (after a reset) and answers `{status, summary, result}` with every step and expectation.
 */
export function scenarioRoutes(runScenario: ScenarioRunner | undefined): Hono {
  const app = new Hono();
  app.post('/scenarios/run', async (c) => {
    if (!runScenario)
      throw new NotFoundError(
        'no_scenario',
        'No scenario is loaded: start serve with --scenario FILE (env REPORTBO_SCENARIO) to run its steps here.',
      );
    return c.json(await runScenario());
  });
  return app;
}

import { Hono } from 'hono';
import type { z } from 'zod';
import { NotFoundError } from '../errors.js';
import type { ScenarioRunResultSchema } from './contract/schemas.js';
import { mount } from './mount.js';

/**
 * Runs the steps of the scenario `serve --scenario FILE` loaded and answers the run's report. The
 * process that loaded the scenario hands it in: the admin API never imports the scenario runner,
 * which itself starts servers that mount this API (no import circle, see test/import-cycles.test.ts).
 */
export type ScenarioRunner = () => Promise<ScenarioRunResult>;

/** What `POST /__admin/scenarios/run` answers. */
export type ScenarioRunResult = z.output<typeof ScenarioRunResultSchema>;

/**
 * `POST /__admin/scenarios/run`: runs the steps of the scenario `serve --scenario FILE` loaded
 * (after a reset) and answers `{status, summary, result}` with every step and expectation.
 */
export function scenarioRoutes(runScenario: ScenarioRunner | undefined): Hono {
  return mount(new Hono(), {
    runScenario: async () => {
      if (!runScenario)
        throw new NotFoundError(
          'no_scenario',
          'No scenario is loaded: start serve with --scenario FILE (env REPORTBO_SCENARIO) to run its steps here.',
        );
      return runScenario();
    },
  });
}

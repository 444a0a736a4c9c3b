import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';

/**
 * `POST /__admin/scenarios/run`: runs the steps of the scenario `serve --scenario FILE` loaded
 * (after a reset) and answers `{status, summary, result}` with every step and expectation.
 */
export function scenarioRoutes(emulator: Emulator): Hono {
  const app = new Hono();
  app.post('/scenarios/run', async (c) => {
    const { scenarioRunnerOf } = await import('../scenarios/serve.js');
    const run = scenarioRunnerOf(emulator);
    if (!run)
      throw new NotFoundError(
        'no_scenario',
        'No scenario is loaded: start serve with --scenario FILE (env REPORTBO_SCENARIO) to run its steps here.',
      );
    return c.json(await run());
  });
  return app;
}

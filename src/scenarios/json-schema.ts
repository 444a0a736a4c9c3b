import { writeFile } from 'node:fs/promises';
import { scenarioJsonSchema } from './schema/index.js';

/** Where the published JSON Schema of the scenario format lives in the repository. */
export const SCENARIO_SCHEMA_PATH = 'docs/scenario.schema.json';

/** The exact text of docs/scenario.schema.json (a test fails when the committed file differs). */
export function scenarioJsonSchemaText(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}

/**
 * Writes the JSON Schema file (`npm run scenario-schema:write` imports it from dist/).
 * @public
 */
export async function writeScenarioJsonSchema(path = SCENARIO_SCHEMA_PATH): Promise<void> {
  await writeFile(path, scenarioJsonSchemaText());
}

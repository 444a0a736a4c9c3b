import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SCENARIO_SCHEMA_PATH, scenarioJsonSchemaText } from './json-schema.js';

const root = new URL('../../', import.meta.url);

describe('the published scenario JSON Schema', () => {
  it('is current: docs/scenario.schema.json equals the schema generated from the zod format', () => {
    const committed = readFileSync(new URL(SCENARIO_SCHEMA_PATH, root), 'utf8');
    expect(committed, 'stale: run `npm run scenario-schema:write`').toBe(scenarioJsonSchemaText());
  });

  it('accepts every shipped scenario and refuses an unknown step kind', () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(scenarioJsonSchemaText()));
    for (const name of [
      '01-issue-happy-path.yaml',
      '05-receiver-recovers.yaml',
      '08-gettoken-migration.yaml',
    ]) {
      const data = parse(readFileSync(new URL(`scenarios/${name}`, root), 'utf8'));
      expect(validate(data), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate({ name: 'x', steps: [{ isue: {} }] })).toBe(false);
  });
});

import { z } from 'zod';
import { addReferenceIssues } from './references.js';
import { ClockSpec, CredentialSpec, ReceiverSpec, ScenarioSettings, UserSpec } from './setup.js';
import { type Step, StepSchema } from './steps.js';

export * from './common.js';
export * from './expect.js';
export * from './setup.js';
export * from './steps.js';

/** Current version of the scenario format. */
export const SCENARIO_FORMAT_VERSION = 1;

/** A scenario file: setup (clock, settings, credentials, users, receivers) and the steps to run. */
export const ScenarioSchema = z
  .strictObject({
    $schema: z.string().optional().describe('editor hint: path or URL of scenario.schema.json'),
    name: z.string().min(1),
    description: z.string().optional(),
    version: z.literal(SCENARIO_FORMAT_VERSION).default(SCENARIO_FORMAT_VERSION).describe('format version'),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1)
      .describe('fixes every generated value'),
    clock: ClockSpec.default({ mode: 'manual', start: '2026-04-27T10:00:00Z' }),
    settings: ScenarioSettings.default({}),
    credentials: z.array(CredentialSpec).default([]),
    users: z.array(UserSpec).default([]),
    receivers: z.array(ReceiverSpec).default([]),
    steps: z.array(StepSchema).min(1, 'expected at least one step'),
  })
  .superRefine((s, ctx) => addReferenceIssues(s, ctx))
  .describe('reportbo-emulator scenario');

/** A validated scenario, defaults applied. */
export type Scenario = Omit<z.output<typeof ScenarioSchema>, 'steps'> & { steps: Step[] };

/** The JSON Schema published for editor completion (docs/scenario.schema.json). */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ScenarioSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://github.com/reportbo-emulator/reportbo-emulator/docs/scenario.schema.json',
    title: 'reportbo-emulator scenario',
  };
}

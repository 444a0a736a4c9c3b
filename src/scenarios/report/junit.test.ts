import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../run/results.js';
import { scenarioJunit } from './junit.js';

const result: ScenarioResult = {
  file: 'a & b.yaml',
  name: 'quotes " and <tags>',
  status: 'error',
  durationMs: 1500,
  notes: [],
  steps: [
    {
      index: 1,
      kind: 'expect',
      label: 'expect notifications',
      status: 'failed',
      durationMs: 10,
      expectations: [
        { name: 'ok one', passed: true, mismatches: [] },
        {
          name: 'bad\u0001one',
          passed: false,
          mismatches: [{ field: 'state', expected: 'delivered', actual: 'pending' }],
        },
      ],
    },
    {
      index: 2,
      kind: 'void',
      label: 'void t',
      status: 'error',
      durationMs: 5,
      error: 'refused <409>',
      expectations: [],
    },
    {
      index: 3,
      kind: 'expect',
      label: 'expect reservation',
      status: 'skipped',
      durationMs: 0,
      expectations: [],
    },
  ],
};

describe('scenarioJunit', () => {
  it('escapes names and messages and counts tests, failures, errors and skips', () => {
    const xml = scenarioJunit([result], new Date('2026-04-27T10:00:00Z'));
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(doc.testsuites).toMatchObject({ tests: '4', failures: '1', errors: '1' });
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({
      name: 'quotes " and <tags>',
      file: 'a & b.yaml',
      tests: '4',
      skipped: '1',
      time: '1.500',
    });
    expect(suite.testcase[1].failure.message).toBe('state: expected "delivered", actual "pending"');
    expect(suite.testcase[1].name).toBe('step 1: expect notifications › badone');
    expect(suite.testcase[2].error.message).toBe('refused <409>');
  });
});

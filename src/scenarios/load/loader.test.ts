import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioFileError } from './loader.js';

function problems(text: string, file = 'bad.yaml') {
  try {
    parseScenario(text, file);
  } catch (err) {
    if (err instanceof ScenarioFileError) return err.problems;
    throw err;
  }
  throw new Error('expected the scenario to be refused');
}

describe('parseScenario', () => {
  it('applies the defaults: manual clock, seed 1, an https receiver answering 200', () => {
    const s = parseScenario('name: x\nreceivers: [{name: ok}]\nsteps:\n  - issue:\n');
    expect(s.clock).toEqual({ mode: 'manual', start: '2026-04-27T10:00:00Z' });
    expect(s.seed).toBe(1);
    expect(s.receivers[0]).toEqual({ name: 'ok', protocol: 'https', behaviour: [200] });
    expect(s.steps[0]).toEqual({ issue: null });
  });

  it('reads JSON files with the same schema', () => {
    const s = parseScenario('{"name": "j", "steps": [{"advance": {"to": "next-batch"}}]}', 'a.json');
    expect(s.steps[0]).toEqual({ advance: { to: 'next-batch' } });
  });

  it('points a wrong field inside a step at its line and column', () => {
    const [p] = problems('name: x\nsteps:\n  - issue: {}\n  - advance:\n      by: soon\n');
    expect(p).toMatchObject({ file: 'bad.yaml', line: 5, column: 11, path: 'steps[1].advance.by' });
    expect(p!.message).toMatch(/expected a duration.*found "soon"/);
  });

  it('lists the accepted fields when a field is unknown, pointing at the key', () => {
    const [p] = problems('name: x\nsteps:\n  - issue:\n      as: a\n      colour: red\n');
    expect(p).toMatchObject({ line: 5, column: 7, path: 'steps[0].issue.colour' });
    expect(p!.message).toContain('accepted: as, bookingId, overrides, seed');
  });

  it('names every step kind when a step has none of them', () => {
    const [p] = problems('name: x\nsteps:\n  - isue: {}\n');
    expect(p!.path).toBe('steps[0]');
    expect(p!.message).toMatch(/one of: issue, void, exchange.*found a mapping \(fields found: isue\)/);
  });

  it('refuses a booking reference that no earlier step named', () => {
    const [p] = problems('name: x\nsteps:\n  - void: {booking: first}\n  - issue: {as: first}\n');
    expect(p).toMatchObject({ line: 3, path: 'steps[0].void.booking' });
    expect(p!.message).toContain('no earlier step named a reservation "first"');
  });

  it('takes an unquoted YAML version number 1.7 and refuses 1.8', () => {
    const ok = parseScenario('name: x\nsteps:\n  - login: {version: 1.7, username: u, password: p}\n');
    expect(ok.steps[0]).toMatchObject({ login: { version: 1.7, variant: 'json' } });
    const [p] = problems('name: x\nsteps:\n  - login: {version: 1.8, username: u, password: p}\n');
    expect(p!.message).toBe('expected "1.6" or "1.7"; found 1.8');
  });
});

import { describe, expect, it } from 'vitest';
import { runMain } from './helpers/cli.js';
import { runCli, scenarioDir } from './helpers/scenario-cli.js';

const tmp = scenarioDir();

/** One kind of invalid scenario file and what its message must say. */
interface Case {
  kind: string;
  file: string;
  text: string;
  /** `line:column` the message points at. */
  at: string;
  /** The field path named (or `null` for file-level problems). */
  field: string | null;
  says: RegExp;
}

const CASES: Case[] = [
  {
    kind: 'YAML that does not parse',
    file: 'syntax.yaml',
    text: 'name: x\nsteps:\n  - issue: {as: a\n',
    at: '4:1',
    field: null,
    says: /not valid YAML: Flow map .* must .* end with a \}/,
  },
  {
    kind: 'JSON that does not parse',
    file: 'syntax.json',
    text: '{"name": "x",\n "steps": [{"issue": {}},]\n}',
    at: '2:',
    field: null,
    says: /not valid JSON/,
  },
  {
    kind: 'a duplicate key',
    file: 'duplicate.yaml',
    text: 'name: x\nname: y\nsteps:\n  - issue: {}\n',
    at: '2:1',
    field: null,
    says: /Map keys must be unique/,
  },
  {
    kind: 'a missing required field',
    file: 'missing-name.yaml',
    text: 'description: no name\nsteps:\n  - issue: {}\n',
    at: '1:1',
    field: 'name',
    says: /required field missing \(expected a string\)/,
  },
  {
    kind: 'an unknown top-level field',
    file: 'unknown-field.yaml',
    text: 'name: x\nsteps:\n  - issue: {}\nrecievers: []\n',
    at: '4:1',
    field: 'recievers',
    says: /unknown field "recievers"; accepted: .*receivers/,
  },
  {
    kind: 'a value of the wrong type',
    file: 'seed-type.yaml',
    text: 'name: x\nseed: forty-two\nsteps:\n  - issue: {}\n',
    at: '2:7',
    field: 'seed',
    says: /expected a number, found "forty-two"/,
  },
  {
    kind: 'a value outside an enumeration',
    file: 'clock-mode.yaml',
    text: 'name: x\nclock:\n  mode: sometimes\nsteps:\n  - issue: {}\n',
    at: '3:9',
    field: 'clock.mode',
    says: /expected one of "manual", "compressed", "real", found "sometimes"/,
  },
  {
    kind: 'an unknown step kind',
    file: 'step-kind.yaml',
    text: 'name: x\nsteps:\n  - issue: {}\n  - isue: {as: b}\n',
    at: '4:5',
    field: 'steps[1]',
    says: /expected a step with one of: issue, void, exchange, redeliver, advance, runBatch, outage, login, wait, waitFor, expect; .*fields found: isue/,
  },
  {
    kind: 'an unknown field inside a step',
    file: 'step-field.yaml',
    text: 'name: x\nsteps:\n  - issue:\n      as: a\n      colour: red\n',
    at: '5:7',
    field: 'steps[0].issue.colour',
    says: /unknown field "colour"; accepted: as, bookingId, overrides, seed/,
  },
  {
    kind: 'a duration that is not one',
    file: 'duration.yaml',
    text: 'name: x\nsteps:\n  - issue: {}\n  - advance:\n      by: soon\n',
    at: '5:11',
    field: 'steps[1].advance.by',
    says: /expected a duration: ISO 8601 .*found "soon"/,
  },
  {
    kind: 'an API version that does not exist',
    file: 'version.yaml',
    text: 'name: x\nsteps:\n  - login: {version: 1.8, username: u, password: p}\n',
    at: '3:22',
    field: 'steps[0].login.version',
    says: /expected "1.6" or "1.7"; found 1.8/,
  },
  {
    kind: 'a receiver behaviour that is not one',
    file: 'behaviour.yaml',
    text: 'name: x\nreceivers:\n  - name: flaky\n    behaviour: [500, explode]\nsteps:\n  - issue: {}\n',
    at: '4:22',
    field: 'receivers[0].behaviour[1]',
    says: /expected a status 200-599 .*hang, reset.*found "explode"/,
  },
  {
    kind: 'a credential pointing at an undeclared receiver',
    file: 'receiver-ref.yaml',
    text: 'name: x\nreceivers: [{name: ok}]\ncredentials:\n  - id: c\n    apiKey: k\n    url: receiver:nope\nsteps:\n  - issue: {}\n',
    at: '6:10',
    field: 'credentials[0].url',
    says: /no receiver named "nope"; declared receivers: ok/,
  },
  {
    kind: 'a booking reference no earlier step named',
    file: 'booking-ref.yaml',
    text: 'name: x\nsteps:\n  - void: {booking: first}\n  - issue: {as: first}\n',
    at: '3:21',
    field: 'steps[0].void.booking',
    says: /no earlier step named a reservation "first" with as:/,
  },
  {
    kind: 'an ApiKey with a line break',
    file: 'apikey-crlf.yaml',
    text: 'name: x\ncredentials:\n  - id: c\n    apiKey: "k\\r\\nX-Injected: 1"\n    url: https://r.test/hook\nsteps:\n  - issue: {}\n',
    at: '4:13',
    field: 'credentials[0].apiKey',
    says: /the ApiKey contains a line break \(CR\) at position 2; it is sent in the Authorization header/,
  },
  {
    kind: 'an ApiKey outside Latin-1',
    file: 'apikey-latin1.yaml',
    text: 'name: x\ncredentials:\n  - id: c\n    apiKey: k€y\n    url: https://r.test/hook\nsteps:\n  - issue: {}\n',
    at: '4:13',
    field: 'credentials[0].apiKey',
    says: /contains "€" \(U\+20AC\) at position 2, outside Latin-1/,
  },
  {
    kind: 'a BookingNumber override the filename cannot carry',
    file: 'booking-number.yaml',
    text: 'name: x\nsteps:\n  - issue:\n      overrides: {Reservation: {BookingNumber: "AB/12"}}\n',
    at: '4:',
    field: 'steps[0].issue.overrides.Reservation.BookingNumber',
    says: /BookingNumber contains "\/" \(U\+002F\); it is part of the Content-Disposition filename/,
  },
  {
    kind: 'an empty file',
    file: 'empty.yaml',
    text: '',
    at: '1:1',
    field: null,
    says: /expected a mapping with at least name and steps, found an empty file/,
  },
];

describe('reportbo-emulator run with an invalid scenario file', () => {
  it.each(CASES)('exits 2 for $kind, naming file, line, column and field', async (c) => {
    const file = tmp.write(c.file, c.text);
    // The first two through the real CLI; the rest through the same main() in this process (no
    // process start each).
    const run = CASES.indexOf(c) < 2 ? await runCli(['run', file]) : await runMain(['run', file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const first = run.stderr.split('\n')[0]!;
    expect(first.startsWith(`${file}:${c.at}`), first).toBe(true);
    if (c.field) expect(first).toContain(`: ${c.field}: `);
    expect(first).toMatch(c.says);
    expect(run.stderr).toContain('nothing was run');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for a file that does not exist, naming it', async () => {
    const run = await runCli(['run', `${tmp.dir}/nope.yaml`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${tmp.dir}/nope.yaml: cannot read the scenario file (no such file)`);
  });

  it('runs nothing when one file of several is invalid', async () => {
    const bad = tmp.write('one-bad.yaml', 'name: x\nsteps: []\n');
    const run = await runCli(['run', 'scenarios/01-issue-happy-path.yaml', bad]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${bad}:2:8: steps: expected at least one step`);
  });
});

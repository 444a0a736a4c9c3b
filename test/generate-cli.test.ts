import { readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { notificationJsonSchemaText } from '../src/contract/index.js';
import { runCli } from './helpers/cli.js';

const SCHEMA_FILE = new URL('../docs/notification.schema.json', import.meta.url);

const cli = (args: string[]) => runCli(args);

const AT = '2026-04-27T10:00:00Z';

describe('reportbo-emulator generate', () => {
  it('prints identical bytes for the same seed and --at, and different bytes for another seed', async () => {
    const args = ['generate', '--event', 'Issue', '--count', '5', '--at', AT];
    const [a, b, c] = await Promise.all([
      cli([...args, '--seed', '7']),
      cli([...args, '--seed', '7']),
      cli([...args, '--seed', '8']),
    ]);
    expect(a.code).toBe(0);
    expect(a.stdout.split('\n').filter(Boolean)).toHaveLength(5);
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).not.toBe(a.stdout);
  });

  it('prints the old and the new body of each Exchange, linked, at the --at time', async () => {
    const { code, stdout } = await cli([
      'generate',
      '--event',
      'Exchange',
      '--count',
      '2',
      '--seed',
      '3',
      '--at',
      AT,
    ]);
    expect(code).toBe(0);
    const bodies = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(bodies.map((b) => b.Reservation.BookingStatus)).toEqual([
      'Exchanged',
      'Issued-Exch',
      'Exchanged',
      'Issued-Exch',
    ]);
    expect(bodies[0].Reservation.ExchangedTo).toBe(bodies[1].Reservation.BookingID);
    expect(bodies[1].Reservation.ExchangedFrom).toBe(bodies[0].Reservation.BookingID);
    expect(bodies.every((b) => b.Reservation.UpdateDate === AT)).toBe(true);
  });

  it('prints one Voided body per Void, issued before --at', async () => {
    const { stdout } = await cli(['generate', '--event', 'Void', '--count', '3', '--seed', '1', '--at', AT]);
    const bodies = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(bodies.map((b) => b.Reservation.BookingStatus)).toEqual(['Voided', 'Voided', 'Voided']);
    expect(bodies.every((b) => Date.parse(b.Reservation.TicketingDate) < Date.parse(AT))).toBe(true);
  });

  it('refuses an unknown event with exit code 2, listing the accepted ones, without a stack trace', async () => {
    const { code, stderr } = await cli(['generate', '--event', 'Refund']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Issue, Void, Exchange/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('reportbo-emulator schema', () => {
  it('prints a JSON Schema that an independent validator (ajv) accepts generated bodies with', async () => {
    const [schema, generated] = await Promise.all([
      cli(['schema']),
      Promise.all(
        (['Issue', 'Void', 'Exchange'] as const).map((event) =>
          cli(['generate', '--event', event, '--count', '40', '--seed', '99', '--at', AT]),
        ),
      ),
    ]);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(schema.stdout));
    const bodies = generated.flatMap((g) =>
      g.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    expect(bodies.length).toBeGreaterThanOrEqual(160);
    for (const body of bodies) {
      if (!validate(body))
        throw new Error(`${body.Reservation.BookingID}: ${ajv.errorsText(validate.errors)}`);
    }
    // The same validator rejects what the contract rejects.
    const bad = structuredClone(bodies[0]);
    bad.Reservation.UpdateDate = '2026-04-27T10:00:00+01:00';
    bad.Surprise = true;
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/Reservation/UpdateDate']),
    );
  });

  it('writes the schema with --out, and docs/notification.schema.json is current (run `npm run schema:write` if not)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'schema-'));
    const out = join(dir, 'schema.json');
    expect((await cli(['schema', '--out', out])).code).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(notificationJsonSchemaText());
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(notificationJsonSchemaText());
  });
});

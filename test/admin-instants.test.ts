import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ADMIN_ROUTES } from '../src/admin/contract/routes.js';
import { InstantInput } from '../src/clock/bounds.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { adminCall } from './helpers/admin-call.js';

// Issue 38 §6 (and issue 43's `since` of the resend body that took "1" and "2026" while the list's
// `since` refused them): every instant an admin body or query takes is the one InstantInput of the
// route table, so each accepts and refuses the same forms. The fields come from the route table.

/** The object schema under optional/default wrappers, or undefined. */
function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  let s = schema as
    | (z.ZodType & { _zod: { def: { type: string; innerType?: z.ZodType; shape?: object } } })
    | undefined;
  while (s && (s._zod.def.type === 'optional' || s._zod.def.type === 'default'))
    s = s._zod.def.innerType as never;
  return s?._zod.def.type === 'object' ? (s._zod.def.shape as Record<string, z.ZodType>) : undefined;
}

const unwrap = (s: z.ZodType): z.ZodType => {
  const def = s._zod.def as { type: string; innerType?: z.ZodType };
  return def.type === 'optional' && def.innerType ? unwrap(def.innerType) : s;
};

/** Every member of a route's query or body whose schema says it is a date-time. */
const INSTANT_FIELDS = Object.entries(ADMIN_ROUTES).flatMap(([op, r]) =>
  (['query', 'body'] as const).flatMap((where) =>
    Object.entries(objectShape((r as { query?: z.ZodType; body?: z.ZodType })[where]) ?? {})
      .filter(([, s]) => JSON.stringify(unwrap(s).meta() ?? {}).includes('date-time'))
      .map(([name, s]) => ({ op, where, name, schema: unwrap(s) })),
  ),
);

const FORMS = {
  accepted: [
    '2026-04-27T10:00:00Z',
    '2026-04-27T10:00:00.250Z',
    '2026-04-27T12:00:00+02:00',
    '2026-04-27T10:00Z',
  ],
  refused: ['1', '2026', '2026-04-27', '2026-04-27T10:00:00', 'yesterday', '10000-01-01T00:00:00Z', ''],
};

describe('instants at the route table', () => {
  it('finds the instants of the bodies and queries (since, until, from, …)', () => {
    const names = INSTANT_FIELDS.map((f) => `${f.op}.${f.where}.${f.name}`);
    expect(names).toEqual(
      expect.arrayContaining(['resendFailed.body.since', 'listNotifications.query.since']),
    );
  });

  it('every one of them is the route table’s one InstantInput', () => {
    // A described copy (`.describe()`) is another instance with the same rule: the rule is compared.
    const rule = (s: z.ZodType) => (s._zod.def as { checks?: unknown[] }).checks?.[0];
    expect(rule(InstantInput)).toBeDefined();
    expect(
      INSTANT_FIELDS.filter((f) => rule(f.schema) !== rule(InstantInput)).map(
        (f) => `${f.op}.${f.where}.${f.name}`,
      ),
    ).toEqual([]);
  });

  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startServer({
      port: 0,
      logLevel: 'silent',
      clock: 'manual',
      clockStart: '2026-04-27T10:00:00Z',
    });
    await adminCall(emu, 'POST', '/credentials', {
      id: 'c1',
      apiKey: 'instant-key-0001',
      url: 'https://127.0.0.1:9/',
    });
  });
  afterAll(() => emu.close());

  it.each([
    ...FORMS.refused.map((since) => [since, 400] as const),
    ...FORMS.accepted.map((since) => [since, 200] as const),
  ])('the list query and the bulk resend body both answer since=%j with %i', async (since, status) => {
    const list = await adminCall(emu, 'GET', `/notifications?since=${encodeURIComponent(since)}`);
    const bulk = await adminCall(emu, 'POST', '/notifications/resend-failed', {
      credentialId: 'c1',
      since,
      dryRun: true,
    });
    expect([list.status, bulk.status]).toEqual([status, status]);
    // A refusal names the member it refused.
    if (status === 400)
      expect([JSON.stringify(list.body), JSON.stringify(bulk.body)]).toEqual([
        expect.stringContaining('since'),
        expect.stringContaining('since'),
      ]);
  });
});

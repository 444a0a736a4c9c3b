import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comparable, readState, type StateRead, stateDifferences } from './helpers/admin-state.js';
import { DataDirServe } from './helpers/data-dir-serve.js';

// Data dirs written by the build before the journal's records became the stores' changes (data dir
// format 2, decision 0230). `data-dir-format-2`: users, credentials (one replaced), tokens (one
// revoked), journal entries, faults, outages, reservations (one voided), notifications whose attempts
// failed, two redelivery batches and a clock moved an hour. `data-dir-format-2-snapshot`: a snapshot
// (written by a reset) holding users, credentials and trusted certificates, and a journal after it
// that deletes one of each, then the same kinds of writes. Each `answers.json` holds every state GET
// that build answered when it opened its data dir again (recorded with RECORD_FIXTURE=1 on that
// build). Every later build must open them and answer the same.

/** Decision 0236 (every list is a page) and its triage cap, after both fixtures were recorded. */
const PAGED_SINCE_0236: Readonly<Record<string, readonly string[]>> = {
  listReservations: ['total', 'nextCursor', 'newerCursor'],
  listUsers: ['total', 'nextCursor', 'newerCursor'],
  listTokens: ['total', 'nextCursor', 'newerCursor'],
  listRequests: ['total', 'nextCursor', 'newerCursor'],
  getTriage: ['groupCount'],
};

/**
 * Each fixture, the fields each answer gained after it was recorded (by design, not from the data
 * dir: left out of today's answer before the comparison, everything else must match), and the state
 * GETs added since (that build had no answer to compare with).
 */
const FIXTURES = [
  {
    name: 'data-dir-format-2',
    // Decision 0209: the notification list is a page; decision 0225: with the newer page's cursor.
    added: { ...PAGED_SINCE_0236, listNotifications: ['total', 'nextCursor', 'newerCursor'] },
    routesSince: new Set(['getTriage']), // decision 0202
  },
  { name: 'data-dir-format-2-snapshot', added: PAGED_SINCE_0236, routesSince: new Set<string>() },
];

/** `read` without the top-level fields its operation gained after the fixture was recorded. */
function withoutAdded(read: StateRead, added: Readonly<Record<string, readonly string[]>>): StateRead {
  const gained = added[read.operation];
  if (!gained || typeof read.body !== 'object' || read.body === null) return read;
  const body = Object.fromEntries(Object.entries(read.body).filter(([k]) => !gained.includes(k)));
  return { ...read, body };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe.each(FIXTURES)('a data dir written by an earlier build ($name)', ({ name, added, routesSince }) => {
  const fixture = join(import.meta.dirname, 'fixtures', name);
  const answers = join(fixture, 'answers.json');
  it('opens and answers every state GET as that build did', async () => {
    const d = mkdtempSync(join(tmpdir(), 'reportbo-fixture-'));
    dirs.push(d);
    cpSync(join(fixture, 'data'), join(d, 'data'), { recursive: true });
    const emu = new DataDirServe(join(d, 'data'), ['--clock', 'manual', '--seed', '4242', '--allow-http']);
    await emu.start();
    const now = await readState(emu.url);
    expect(await emu.stop()).toBe(0);
    if (process.env.RECORD_FIXTURE === '1') {
      writeFileSync(answers, `${JSON.stringify([...now.values()], null, 1)}\n`);
      return;
    }
    const recorded = new Map(
      // Compared as the helper compares now (no wall-time buckets, no exchanges).
      (JSON.parse(readFileSync(answers, 'utf8')) as StateRead[]).map((r) => [r.path, comparable(r)] as const),
    );
    expect(recorded.size).toBeGreaterThan(20);
    const today = new Map(
      [...now]
        .filter(([, read]) => !routesSince.has(read.operation))
        .map(([path, read]) => [path, withoutAdded(read, added)] as const),
    );
    expect(stateDifferences(recorded, today)).toEqual([]);
  });

  it('goes on in format 3 in the same journal, and a restart answers the same', async () => {
    const d = mkdtempSync(join(tmpdir(), 'reportbo-fixture-'));
    dirs.push(d);
    cpSync(join(fixture, 'data'), join(d, 'data'), { recursive: true });
    const emu = new DataDirServe(join(d, 'data'), ['--clock', 'manual', '--seed', '4242', '--allow-http']);
    const post = (path: string, body: unknown) =>
      fetch(`${emu.url}/__admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    await emu.start();
    // Records of both formats in one journal: a reservation, its notification, a user, a clock move.
    expect(await post('/events', { type: 'Issue' })).toBe(202);
    expect(await post('/users', { username: 'cy', password: 'pw-cy', idWeb: 9, webDescription: 'Cy' })).toBe(
      201,
    );
    expect(await post('/clock/advance', { by: 'PT1H' })).toBe(200);
    await fetch(`${emu.url}/__admin/notifications?wait=settled`).then((r) => r.arrayBuffer());
    const before = await readState(emu.url);
    expect(await emu.stop()).toBe(0);
    expect(JSON.parse(readFileSync(join(d, 'data', 'format.json'), 'utf8')).format).toBe(3);
    await emu.start();
    const after = await readState(emu.url);
    expect(await emu.stop()).toBe(0);
    expect(stateDifferences(before, after)).toEqual([]);
  });
});

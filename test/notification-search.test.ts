/**
 * Searching notifications through GET /__admin/notifications: values, never key names; the field
 * syntax (`Pax.LastName:…`, `status:503`); bounded pages with a total and a cursor; time ranges in
 * emulator and wall time; and a refused query naming what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_START, deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

interface Listed {
  notifications: Array<{ id: string; credentialId: string }>;
  total?: number;
  nextCursor?: string | null;
}
interface Problem {
  error: { code: string; message: string; details: { path?: string } };
}
interface Body {
  Pax: Array<{ FirstName: string; LastName: string }>;
}

async function fiveIssues() {
  const good = await receiver();
  const bad = await receiver({ defaultBehaviour: behave.status(503, 'busy') });
  const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
  await emu.credential({ id: 'good', apiKey: 'k', url: good.url });
  await emu.event({ type: 'Issue' });
  await emu.event({ type: 'Issue' });
  await emu.settle();
  await emu.admin('PUT', '/credentials/good', { apiKey: 'k', url: bad.url });
  await emu.advance({ by: 'PT1H' });
  await emu.event({ type: 'Issue' });
  await emu.event({ type: 'Issue' });
  await emu.event({ type: 'Issue' });
  await emu.settle();
  const search = async (query: string) => (await emu.admin<Listed>('GET', `/notifications?${query}`)).body;
  const ids = async (query: string) => (await search(query)).notifications.map((n) => n.id);
  return { emu, search, ids };
}

describe('GET /__admin/notifications?q=', () => {
  it('matches values of the body, never its key names', async () => {
    const { emu, ids } = await fiveIssues();
    const body = (await emu.notification('n-000003')).body as Body;
    const lastName = body.Pax[0]!.LastName;
    expect(await ids(`q=${encodeURIComponent(lastName.toUpperCase())}`)).toContain('n-000003');
    // Every body has the keys LastName and FirstName: as words they find nothing.
    expect(await ids('q=LastName')).toEqual([]);
    expect(await ids('q=firstname')).toEqual([]);
  });

  it('reads Path.To.Key:text as a value under that key path, status:NNN as an answer', async () => {
    const { emu, ids } = await fiveIssues();
    const body = (await emu.notification('n-000004')).body as Body;
    const { LastName, FirstName } = body.Pax[0]!;
    expect(await ids(`q=${encodeURIComponent(`Pax.LastName:${LastName}`)}`)).toContain('n-000004');
    expect(await ids(`q=${encodeURIComponent(`lastname:${LastName.toLowerCase()}`)}`)).toContain('n-000004');
    // The same text under another key does not match that key path.
    expect(await ids(`q=${encodeURIComponent(`Pax.FirstName:${LastName}`)}`)).not.toContain('n-000004');
    expect(
      await ids(`q=${encodeURIComponent(`Pax.FirstName:${FirstName} Pax.LastName:${LastName}`)}`),
    ).toContain('n-000004');
    expect(await ids('q=status:503')).toEqual(['n-000003', 'n-000004', 'n-000005']);
    expect(await ids('q=status:5xx')).toEqual(['n-000003', 'n-000004', 'n-000005']);
    expect(await ids('q=status:200')).toEqual(['n-000001', 'n-000002']);
    expect(await ids(`q=${encodeURIComponent(`status:503 Pax.LastName:${LastName}`)}`)).toContain('n-000004');
    expect(await ids(`q=${encodeURIComponent(`status:200 Pax.LastName:${LastName}`)}`)).not.toContain(
      'n-000004',
    );
  });

  it('answers pages: the newest limit matches, the total, and a cursor to the older ones', async () => {
    const { search } = await fiveIssues();
    const first = await search('limit=2');
    expect(first.notifications.map((n) => n.id)).toEqual(['n-000004', 'n-000005']);
    expect(first.total).toBe(5);
    expect(first.nextCursor).toBe('n-000004');
    const second = await search(`limit=2&before=${first.nextCursor}`);
    expect(second.notifications.map((n) => n.id)).toEqual(['n-000002', 'n-000003']);
    const last = await search(`limit=2&before=${second.nextCursor}`);
    expect(last.notifications.map((n) => n.id)).toEqual(['n-000001']);
    expect(last.nextCursor).toBeNull();
    const failed = await search('limit=2&q=status:503');
    expect(failed).toMatchObject({ total: 3, nextCursor: 'n-000004' });
  });

  it('narrows by creation time (emulator) and by first attempt (wall clock)', async () => {
    const { ids } = await fiveIssues();
    const hourLater = new Date(Date.parse(CLOCK_START) + 3_600_000).toISOString();
    expect(await ids(`since=${hourLater}`)).toEqual(['n-000003', 'n-000004', 'n-000005']);
    expect(await ids(`until=${hourLater}`)).toEqual(['n-000001', 'n-000002']);
    expect(await ids(`sinceWall=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    expect(await ids(`untilWall=${new Date(Date.now() + 60_000).toISOString()}`)).toHaveLength(5);
  });

  it('refuses a wrong query with a problem naming the parameter', async () => {
    const { emu } = await fiveIssues();
    for (const [query, path] of [
      ['q=status:abc', 'q'],
      [`q=${'x'.repeat(501)}`, 'q'],
      ['limit=0', 'limit'],
      ['limit=5000', 'limit'],
      ['before=n-999999', 'before'],
      ['since=yesterday', 'since'],
    ] as const) {
      const res = await emu.admin<Problem>('GET', `/notifications?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('invalid_query');
      expect(res.body.error.details.path, query).toBe(path);
    }
  });
});

/**
 * `serve --log-format pretty` through the tour's steps (docs/tour.md) (plain http receivers with
 * --allow-http instead of the tour's certificates): one line per event, attempt, batch,
 * GetAccessToken call and admin change, each with emulator time, in aligned columns.
 */
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/emulator.js';
import { serveCli } from './helpers/processes.js';
import { behave, receiver } from './helpers/receiver.js';

async function serve(args: string[], env: Record<string, string> = {}) {
  const { url, started } = await serveCli(args, env);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const get = async (path: string) => (await fetch(`${url}${path}`)).json();
  return { started, url: url!, post, get };
}

/** Wall time (UTC), then emulator time without the year: the columns a manual clock's lines start with. */
const TIME = String.raw`\d\d:\d\d:\d\d \d\d-\d\d \d\d:\d\d:\d\d`;
/** Where every line's message starts: wall, emulator time, level, kind, status, each padded. */
const MESSAGE_COLUMN = 'HH:MM:SS MM-DD HH:MM:SS LEVEL attempt timeout '.length;
const row = (kind: string, status: string, msg: string) => `${kind.padEnd(7)} ${status.padEnd(7)} ${msg}`;

describe('serve --log-format pretty', () => {
  it('prints one aligned line, with wall and emulator time, for each step of the tour', async () => {
    const good = await receiver();
    const wrong = await receiver({ defaultBehaviour: behave.status(401) });
    const wallBefore = new Date().toISOString().slice(11, 19);
    const emu = await serve([
      '--log-format',
      'pretty',
      '--clock',
      'manual',
      '--clock-start',
      '2026-04-27T10:00:00Z',
      '--seed',
      '42',
      '--allow-http',
    ]);
    expect((await emu.post('/__admin/credentials', { id: 'tour', apiKey: 'k', url: good.url })).status).toBe(
      201,
    );
    const issued = await emu.post('/__admin/events', { type: 'Issue' });
    expect(issued.status).toBe(202);
    await emu.get('/__admin/notifications?wait=settled');
    await emu.post('/__admin/credentials', {
      id: 'wrong-key',
      apiKey: 'not-the-key',
      url: wrong.url,
      filters: { pcc: ['WRONG1'] },
    });
    await emu.post('/__admin/events', { type: 'Issue', overrides: { Reservation: { PCCBook: 'WRONG1' } } });
    await emu.get('/__admin/notifications?wait=settled');
    await emu.post('/__admin/clock/advance', { to: 'next-batch' });
    await emu.post('/__admin/clock/advance', { by: 'PT4H' });
    await emu.post('/__admin/users', {
      username: 'alice',
      password: 'secret',
      idWeb: 1001,
      webDescription: 'Agency',
      versions: ['1.6', '1.7'],
    });
    await emu.post('/api/1.7/AuthService.json/GetAccessToken', { Username: 'alice', Password: 'secret' });
    await emu.post('/api/1.7/AuthService.json/GetAccessToken', { Username: 'alice', Password: 'wrong' });
    const refused = await emu.post('/__admin/credentials', { id: 'bad', apiKey: 'k', url: 'ftp://x/' });
    expect(refused.status).toBe(400);
    await emu.post('/__admin/reset', {});
    await emu.started.waitFor(/admin +reset/);
    const wallAfter = new Date().toISOString().slice(11, 19);

    const lines = emu.started.output().split('\n').filter(Boolean);
    const find = (pattern: string, level = 'INFO') => {
      const re = new RegExp(`^${TIME} ${level.padEnd(5)} ${pattern}$`);
      const line = lines.find((l) => re.test(l));
      expect(line, `no line matches ${re}\n${lines.join('\n')}`).toBeDefined();
      return line!;
    };
    const listening = find(
      row('', '', String.raw`reportbo-emulator listening on .* \(dashboard: http://.*/__admin/ui, .*`),
    );
    // Wall time first (today's, not the manual clock's), then emulator time.
    expect(listening.slice(9, 23)).toBe('04-27 10:00:00');
    const wall = listening.slice(0, 8);
    if (wallBefore <= wallAfter) expect(wall >= wallBefore && wall <= wallAfter, wall).toBe(true);
    const origin = /listening on (http:\/\/[\d.:]+)/.exec(listening)![1]!;
    const link = (id: string) => `${origin}/__admin/ui#${id}`;
    find(row('admin', '', `credential added tour → ${good.url}/?`));
    const bookingNumber = (
      issued.body.reservations as Array<{ bookingNumber: string; bookingId: number }>
    )[0]!;
    const firstEvent = find(
      row(
        'event',
        '',
        String.raw`Issue ${bookingNumber.bookingNumber} BookingID ${bookingNumber.bookingId} → 1 credential \(tour\) at 2026-04-27T10.*`,
      ),
    );
    expect(firstEvent.slice(9, 23)).toBe('04-27 10:00:00');
    const firstAttempt = find(
      row('attempt', '200', String.raw`1/5 \d+ ms tour ${bookingNumber.bookingNumber} ${link('n-000001')}`),
    );
    const secondEvent = find(
      row('event', '', String.raw`Issue \w{6} BookingID \d+ → 2 credentials \(tour, wrong-key\).*`),
    );
    const failed = find(row('attempt', '401', String.raw`1/5 \d+ ms \S+ \w{6} ${link('n-000003')}`));
    // An event is printed before its attempts.
    expect(lines.indexOf(firstEvent)).toBeLessThan(lines.indexOf(firstAttempt));
    expect(lines.indexOf(secondEvent)).toBeLessThan(lines.indexOf(failed));
    const batch = find(
      row('batch', '', String.raw`redelivery batch: 1 attempted, 0 delivered, 1 failed, 0 exhausted, at .*`),
    );
    expect(batch.slice(9, 23)).toBe('04-27 10:55:00');
    // The attempt that exhausts its notification is a warning.
    find(row('attempt', '401', String.raw`5/5 \d+ ms w\S* \w{6} ${link('n-000003')}`), 'WARN');
    const exhaustingBatch = find(
      row('batch', '', String.raw`redelivery batch: 1 attempted, 0 delivered, 1 failed, 1 exhausted, at .*`),
    );
    expect(exhaustingBatch.slice(9, 23)).toBe('04-27 13:55:00');
    find(row('clock', '', String.raw`clock moved to 2026-04-27T10:55:00\.000Z, 1 batch run, from .*`));
    find(row('clock', '', String.raw`clock moved to 2026-04-27T14:55:00\.000Z, 4 batches run, from .*`));
    find(row('admin', '', String.raw`user added alice \(API 1.6, 1.7\)`));
    expect(
      find(row('token', '200', String.raw`GetAccessToken 1.7 json alice → ok \(HTTP 200\)`)).slice(9, 23),
    ).toBe('04-27 14:55:00');
    find(
      row('token', '200', String.raw`GetAccessToken 1.7 json alice → 1200 invalid_credentials \(HTTP 200\)`),
    );
    find(row('admin', '', 'reset reservations, notifications, tokens, journal and faults forgotten'));
    // A refused admin call: one line with its status in the status column, its code and reason.
    const reason = refused.body.error as { code: string; message: string };
    find(row('refused', '400', `admin call refused: POST /__admin/credentials → 400 ${reason.code}: .*`));
    expect(lines.filter((l) => l.includes('admin call refused'))).toHaveLength(1);
    // The batch at 14:55 had nothing due: no line (the clock line counts it).
    expect(lines.filter((l) => l.includes('at 2026-04-27T14:55:00.000Z'))).toEqual([]);
    for (const line of lines) {
      // Aligned: every line's message starts in the same column; no colour codes off a terminal.
      expect(line.slice(0, MESSAGE_COLUMN), line).toMatch(new RegExp(`^${TIME} \\w+ +\\w* +\\w* +$`));
      expect(line[MESSAGE_COLUMN], line).not.toBe(' ');
      // Activity lines fit 120 columns (the readiness line is whole: it carries the dashboard's address).
      if (line !== listening) expect(line.length, line).toBeLessThanOrEqual(120);
    }
    expect(emu.started.output()).not.toContain('\u001b[');
  });

  it('writes JSON lines by default off a terminal, each with emulatorTime and its kind', async () => {
    const emu = await serve(['--clock', 'manual', '--clock-start', '2026-04-27T10:00:00Z']);
    await emu.post('/api/1.6/FlightService.json/GetAccessToken', { username: 'x', password: 'y' });
    await emu.started.waitFor(/GetAccessToken 1\.6/);
    const records = emu.started
      .output()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ level: 30, emulatorTime: '2026-04-27T10:00:00.000Z' });
    expect(records[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT/); // wall time, ISO, not epoch ms
    expect(records.find((r) => r.kind === 'token')).toMatchObject({
      emulatorTime: '2026-04-27T10:00:00.000Z',
      version: '1.6',
      variant: 'json',
      username: 'x',
      transactionCode: '1200',
      msg: 'GetAccessToken 1.6 json x → 1200 invalid_credentials (HTTP 200)',
    });
  });

  it('takes the format from REPORTBO_LOG_FORMAT', async () => {
    const pretty = await serve(['--clock', 'manual'], { REPORTBO_LOG_FORMAT: 'pretty' });
    expect(pretty.started.output()).toMatch(new RegExp(`^${TIME} INFO  `));
  });
});

describe('activity logging off', () => {
  it('leaves the activity bus without listeners above warn, so the hot paths build nothing', () => {
    // At warn the log listens for the attempts that exhaust a notification (a warn line).
    expect(createEmulator({ logLevel: 'warn', logFormat: 'json' }).activity.active).toBe(true);
    expect(createEmulator({ logLevel: 'error', logFormat: 'json' }).activity.active).toBe(false);
    expect(createEmulator({ logLevel: 'silent' }).activity.active).toBe(false);
    expect(createEmulator({ logLevel: 'info', logFormat: 'json' }).activity.active).toBe(true);
  });
});

/**
 * `serve --log-format pretty` through the README tour's steps (plain http receivers with
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

const TIME = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`;

describe('serve --log-format pretty', () => {
  it('prints one aligned line, with emulator time, for each step of the tour', async () => {
    const good = await receiver();
    const wrong = await receiver({ defaultBehaviour: behave.status(401) });
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

    const lines = emu.started.output().split('\n').filter(Boolean);
    const find = (pattern: string) => {
      const re = new RegExp(`^${TIME}  INFO   ${pattern}$`);
      const line = lines.find((l) => re.test(l));
      expect(line, `no line matches ${re}\n${lines.join('\n')}`).toBeDefined();
      return line!;
    };
    expect(
      find(String.raw` +reportbo-emulator listening on .* \(dashboard: http://.*/__admin/ui, .*`),
    ).toMatch(/^2026-04-27 10:00:00/);
    find(`admin    credential added tour → ${good.url}/?`);
    const bookingNumber = (
      issued.body.reservations as Array<{ bookingNumber: string; bookingId: number }>
    )[0]!;
    expect(
      find(
        String.raw`event    Issue ${bookingNumber.bookingNumber} BookingID ${bookingNumber.bookingId} at 2026-04-27T10:00:00Z \(emulator time, manual clock\) → 1 credential \(tour\)`,
      ),
    ).toMatch(/^2026-04-27 10:00:00/);
    find(
      String.raw`attempt  n-000001 attempt 1/5 → 200 in \d+ ms \(credential tour, BookingNumber ${bookingNumber.bookingNumber}\) ${good.url}/?`,
    );
    find(
      String.raw`event    Issue \w{6} BookingID \d+ at \S+ \(emulator time, manual clock\) → 2 credentials \(tour, wrong-key\)`,
    );
    find(
      String.raw`attempt  n-000003 attempt 1/5 → 401 in \d+ ms \(credential wrong-key, BookingNumber \w{6}\) ${wrong.url}/? \[pending\] receiver answered 401; only 200 acknowledges`,
    );
    const batch = find(
      String.raw`batch    redelivery batch at 2026-04-27T10:55:00\.000Z \(emulator time, manual clock\): 1 attempted, 0 delivered, 1 failed, 0 exhausted`,
    );
    expect(batch).toMatch(/^2026-04-27 10:55:00/);
    find(String.raw`attempt  n-000003 attempt 5/5 \(batch\) → 401 in \d+ ms .* \[exhausted\] .*`);
    find(
      String.raw`batch    redelivery batch at 2026-04-27T13:55:00\.000Z \(emulator time, manual clock\): 1 attempted, 0 delivered, 1 failed, 1 exhausted`,
    );
    find(
      String.raw`clock    clock moved 2026-04-27T10:00:00\.000Z → 2026-04-27T10:55:00\.000Z \(emulator time, manual clock\), 1 batch run`,
    );
    find(
      String.raw`clock    clock moved 2026-04-27T10:55:00\.000Z → 2026-04-27T14:55:00\.000Z \(emulator time, manual clock\), 4 batches run`,
    );
    find(String.raw`admin    user added alice \(API 1.6, 1.7\)`);
    expect(find(String.raw`token    GetAccessToken 1.7 json alice → ok \(HTTP 200\)`)).toMatch(
      /^2026-04-27 14:55:00/,
    );
    find(String.raw`token    GetAccessToken 1.7 json alice → 1200 invalid_credentials \(HTTP 200\)`);
    find('admin    reset reservations, notifications, tokens, journal and faults forgotten');
    // A refused admin call: one line with its status, code and the problem's own message.
    const reason = refused.body.error as { code: string; message: string };
    const refusedLine = find(
      `refused  admin call refused: POST /__admin/credentials → 400 ${reason.code}: .*`,
    );
    expect(refusedLine.endsWith(reason.message)).toBe(true);
    expect(lines.filter((l) => l.includes('admin call refused'))).toHaveLength(1);
    // The batch at 14:55 had nothing due: no line (the clock line counts it).
    expect(lines.filter((l) => l.includes('redelivery batch at 2026-04-27T14:55'))).toEqual([]);
    // Aligned: every line's message starts in the same column; no colour codes off a terminal.
    const column = 'YYYY-MM-DD HH:MM:SS  INFO   attempt  '.length;
    for (const line of lines) {
      expect(line.slice(0, column), line).toMatch(new RegExp(`^${TIME}  \\w+ +\\w* +$`));
      expect(line[column], line).not.toBe(' ');
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
    expect(pretty.started.output()).toMatch(new RegExp(`^${TIME}  INFO  `));
  });
});

describe('activity logging off', () => {
  it('leaves the activity bus without listeners above info, so the hot paths build nothing', () => {
    expect(createEmulator({ logLevel: 'warn', logFormat: 'json' }).activity.active).toBe(false);
    expect(createEmulator({ logLevel: 'silent' }).activity.active).toBe(false);
    expect(createEmulator({ logLevel: 'info', logFormat: 'json' }).activity.active).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../auth/journal.js';
import type { Attempt, NotificationSummary } from '../delivery/notification.js';
import { prettyLine } from '../log.js';
import { activityLine } from './log-lines.js';

const summary = (over: Partial<NotificationSummary> = {}): NotificationSummary => ({
  id: 'n-000001',
  credentialId: 'main',
  bookingId: 9646598,
  bookingNumber: '4EDZPM',
  bookingStatus: 'Issued',
  state: 'delivered',
  stateNote: null,
  url: 'https://localhost:8443/reportbo',
  createdAt: '2026-04-27T10:00:00.000Z',
  deliveredAt: null,
  exhaustedAt: null,
  cancelledAt: null,
  cancelReason: null,
  resentFrom: null,
  filename: '20260427_100000Z-4EDZPM.json',
  attemptCount: 1,
  inFlight: false,
  warnings: [],
  lastAttempt: null,
  ...over,
});
const attempt = (over: Partial<Attempt> = {}): Attempt => ({
  number: 1,
  startedAt: '2026-04-27T10:00:00.000Z',
  startedAtWall: '2026-11-22T12:00:00.000Z',
  finishedAt: '2026-04-27T10:00:00.000Z',
  durationMs: 12,
  trigger: 'first',
  outcome: 'http_status',
  statusCode: 200,
  message: 'receiver answered 200 (acknowledged)',
  ...over,
});

describe('activity log lines', () => {
  it('an event names its type, bookings and the credentials it was routed to', () => {
    const line = activityLine({
      kind: 'event',
      event: 'Issue',
      at: '2026-04-27T10:00:00Z',
      reservations: [{ bookingId: 9646598, bookingNumber: '4EDZPM', status: 'Issued' }],
      notifications: ['n-000001', 'n-000002'],
      routedTo: 2,
      credentials: ['main', 'backup'],
    });
    expect(line?.msg).toBe('Issue 4EDZPM BookingID 9646598 → 2 credentials (main, backup)');
    expect(line?.fields.credentials).toEqual(['main', 'backup']);
  });

  it('an Exchange names both reservations with their statuses', () => {
    const line = activityLine({
      kind: 'event',
      event: 'Exchange',
      at: '2026-04-27T10:00:00Z',
      reservations: [
        { bookingId: 1, bookingNumber: 'AAAAAA', status: 'Exchanged' },
        { bookingId: 2, bookingNumber: 'BBBBBB', status: 'Issued-Exch' },
      ],
      notifications: ['n-000001', 'n-000002'],
      routedTo: 1,
      credentials: ['main'],
    });
    expect(line?.msg).toBe(
      'Exchange AAAAAA BookingID 1 (Exchanged), BBBBBB BookingID 2 (Issued-Exch) → 1 credential (main, 2 notifications)',
    );
  });

  it('an event routed nowhere says so, with no list', () => {
    const line = activityLine({
      kind: 'event',
      event: 'Issue',
      at: '2026-04-27T10:00:00Z',
      reservations: [{ bookingId: 1, bookingNumber: 'AAAAAA', status: 'Issued' }],
      notifications: [],
      routedTo: 0,
      credentials: [],
    });
    expect(line?.msg).toBe('Issue AAAAAA BookingID 1 → 0 credentials');
  });

  it('marks the times a line names as emulator time when the clock is not the wall clock', () => {
    const event = {
      kind: 'event' as const,
      event: 'Issue',
      at: '2026-04-27T10:00:00.000Z',
      reservations: [{ bookingId: 1, bookingNumber: 'AAAAAA', status: 'Issued' }],
      notifications: ['n-000001'],
      routedTo: 1,
      credentials: ['main'],
    };
    expect(activityLine(event, 'manual')?.msg).toBe(
      'Issue AAAAAA BookingID 1 → 1 credential (main) at 2026-04-27T10:00:00.000Z (emulator time, manual clock)',
    );
    expect(activityLine(event, 'real')?.msg).toBe('Issue AAAAAA BookingID 1 → 1 credential (main)');
    const batch = { at: '2026-04-27T10:55:00.000Z', attempted: 1, delivered: 1, failed: 0, exhausted: 0 };
    expect(activityLine({ kind: 'batch', batch }, 'compressed')?.msg).toBe(
      'redelivery batch: 1 attempted, 1 delivered, 0 failed, 0 exhausted, at 2026-04-27T10:55:00.000Z (emulator time, compressed clock)',
    );
    expect(activityLine({ kind: 'clock', from: 'A', to: 'B', batches: [] }, 'manual')?.msg).toBe(
      'clock moved to B, 0 batches run, from A (emulator time, manual clock)',
    );
  });

  it('a refused admin call is one line with its method, path, status, code and reason', () => {
    const line = activityLine({
      kind: 'refused',
      method: 'POST',
      path: '/__admin/credentials',
      status: 400,
      code: 'invalid_credential',
      message: 'credential: field url: expected an https:// URL.',
    });
    expect(line?.msg).toBe(
      'admin call refused: POST /__admin/credentials → 400 invalid_credential: credential: field url: expected an https:// URL.',
    );
    expect(line?.fields).toMatchObject({ kind: 'refused', status: 400, ok: false });
  });

  it('a delivered attempt reads like a request log naming the credential and BookingNumber; a failure adds its state and message', () => {
    expect(activityLine({ kind: 'attempt', notification: summary(), attempt: attempt() })?.msg).toBe(
      'n-000001 attempt 1/5 → 200 in 12 ms (credential main, BookingNumber 4EDZPM) https://localhost:8443/reportbo',
    );
    const failed = activityLine({
      kind: 'attempt',
      notification: summary({ state: 'exhausted' }),
      attempt: attempt({
        number: 5,
        trigger: 'batch',
        statusCode: 401,
        durationMs: 3,
        message: 'receiver answered 401; only 200 acknowledges',
      }),
    });
    expect(failed?.msg).toBe(
      'n-000001 attempt 5/5 (batch) → 401 in 3 ms (credential main, BookingNumber 4EDZPM) https://localhost:8443/reportbo [exhausted] receiver answered 401; only 200 acknowledges',
    );
    expect(failed?.level).toBe('warn');
    expect(failed?.fields).toMatchObject({
      kind: 'attempt',
      ok: false,
      statusCode: 401,
      state: 'exhausted',
      credentialId: 'main',
      bookingNumber: '4EDZPM',
    });
    const timeout = activityLine({
      kind: 'attempt',
      notification: summary({ state: 'pending' }),
      attempt: attempt({
        trigger: 'manual',
        outcome: 'timeout',
        statusCode: undefined,
        message: 'no answer',
      }),
    });
    expect(timeout?.msg).toMatch(
      /^n-000001 attempt 1\/5 \(retry now\) → timeout in 12 ms .* \[pending\] no answer$/,
    );
  });

  it("with the emulator's origin an attempt names the inspector's permalink instead of the receiver's URL", () => {
    const line = activityLine(
      { kind: 'attempt', notification: summary(), attempt: attempt() },
      'real',
      'http://127.0.0.1:8080',
    );
    expect(line?.msg).toBe(
      'n-000001 attempt 1/5 → 200 in 12 ms (credential main, BookingNumber 4EDZPM) http://127.0.0.1:8080/__admin/ui#n-000001',
    );
    expect(line?.fields).toMatchObject({
      link: 'http://127.0.0.1:8080/__admin/ui#n-000001',
      url: 'https://localhost:8443/reportbo',
      reason: 'receiver answered 200 (acknowledged)',
    });
    expect(line?.level).toBeUndefined();
  });

  it('a batch, a clock move, a GetAccessToken call and an admin change each have their line', () => {
    expect(
      activityLine({
        kind: 'batch',
        batch: { at: '2026-04-27T10:55:00.000Z', attempted: 3, delivered: 1, failed: 2, exhausted: 1 },
      })?.msg,
    ).toBe('redelivery batch: 3 attempted, 1 delivered, 2 failed, 1 exhausted, at 2026-04-27T10:55:00.000Z');
    expect(activityLine({ kind: 'clock', from: 'A', to: 'B', batches: ['x', 'y'] })?.msg).toBe(
      'clock moved to B, 2 batches run, from A',
    );
    const entry: JournalEntry = {
      id: 'r-000001',
      at: '2026-04-27T10:00:00Z',
      version: '1.7',
      variant: 'soap12',
      path: '/api/1.7/AuthService.asmx',
      username: 'alice',
      outcome: 'invalid_credentials',
      transactionCode: '1200',
      httpStatus: 200,
      warnings: [],
    };
    expect(activityLine({ kind: 'token', entry })?.msg).toBe(
      'GetAccessToken 1.7 soap12 alice → 1200 invalid_credentials (HTTP 200)',
    );
    expect(
      activityLine({ kind: 'token', entry: { ...entry, fault: { id: 'f-1', kind: 'http_500' } } })?.msg,
    ).toBe('GetAccessToken 1.7 soap12 alice → fault http_500 (f-1) (HTTP 200)');
    expect(activityLine({ kind: 'admin', change: 'credential_removed', subject: 'main' })?.msg).toBe(
      'credential removed main',
    );
    expect(activityLine({ kind: 'notification_created', notification: summary() })).toBeUndefined();
    const empty = { at: '2026-04-27T11:55:00.000Z', attempted: 0, delivered: 0, failed: 0, exhausted: 0 };
    expect(activityLine({ kind: 'batch', batch: empty })).toBeUndefined();
  });
});

describe('the pretty format', () => {
  const json = JSON.stringify({
    level: 30,
    time: '2026-11-22T12:00:03.000Z',
    emulatorTime: '2026-04-27T10:55:00.000Z',
    kind: 'batch',
    msg: 'redelivery batch: …',
  });
  const attemptRecord = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      level: 30,
      time: '2026-11-22T12:00:03.000Z',
      emulatorTime: '2026-04-27T10:00:00.000Z',
      ...activityLine(
        { kind: 'attempt', notification: summary(), attempt: attempt() },
        'manual',
        'http://127.0.0.1:8080',
      )!.fields,
      msg: 'the JSON message',
      ...over,
    });

  it('shows wall time, emulator time (for a clock that is not the wall clock), level, kind, status and message in aligned columns', () => {
    expect(prettyLine(json, false)).toBe('12:00:03 INFO  batch           redelivery batch: …\n');
    expect(prettyLine(json, false, { emulatorTime: true })).toBe(
      '12:00:03 04-27 10:55:00 INFO  batch           redelivery batch: …\n',
    );
    const other = prettyLine(
      JSON.stringify({ level: 40, time: '2026-11-22T12:00:03.000Z', msg: 'x' }),
      false,
    );
    expect(other.indexOf('x')).toBe(prettyLine(json, false).indexOf('redelivery'));
  });

  it('an attempt line puts its status in the status column and ends with the inspector permalink', () => {
    expect(prettyLine(attemptRecord(), false, { emulatorTime: true })).toBe(
      '12:00:03 04-27 10:00:00 INFO  attempt 200     1/5 12 ms main 4EDZPM http://127.0.0.1:8080/__admin/ui#n-000001\n',
    );
    const timeout = prettyLine(attemptRecord({ outcome: 'timeout', statusCode: undefined }), false);
    expect(timeout).toMatch(/^12:00:03 INFO {2}attempt timeout 1\/5 12 ms main 4EDZPM http/);
  });

  it('fits 120 columns: a long credential is shortened before the permalink, a long message cut; debug shows them whole', () => {
    const long = attemptRecord({ credentialId: 'a-very-long-credential-name-for-the-staging-receiver' });
    const line = prettyLine(long, false, { emulatorTime: true });
    expect(line.trimEnd().length).toBeLessThanOrEqual(120);
    expect(line).toMatch(/ a-very-\S*… 4EDZPM http:\/\/127\.0\.0\.1:8080\/__admin\/ui#n-000001\n$/);
    const debug = prettyLine(long, false, { emulatorTime: true, detail: true }).split('\n');
    expect(debug[1]).toMatch(
      /^ +↳ https:\/\/localhost:8443\/reportbo receiver answered 200 \(acknowledged\)$/,
    );
    const refused = JSON.stringify({
      level: 30,
      time: '2026-11-22T12:00:03.000Z',
      kind: 'refused',
      status: 400,
      msg: `admin call refused: POST /__admin/credentials → 400 invalid_credential: ${'x'.repeat(200)}`,
    });
    const cutLine = prettyLine(refused, false);
    expect(cutLine.trimEnd()).toHaveLength(120);
    expect(cutLine.trimEnd().endsWith('…')).toBe(true);
    expect(cutLine).toMatch(/^12:00:03 INFO {2}refused 400 {5}admin call refused/);
    expect(prettyLine(refused, false, { detail: true }).split('\n')[1]).toContain('x'.repeat(200));
    // A line of no kind (the readiness line, an error) is never cut.
    const start = JSON.stringify({ level: 30, time: '2026-11-22T12:00:03.000Z', msg: 'y'.repeat(200) });
    expect(prettyLine(start, false)).toContain('y'.repeat(200));
  });

  it('an attempt line stands alone in 120 columns: credential, BookingNumber and the whole permalink, whatever their lengths', () => {
    const origins = ['http://127.0.0.1:8080', 'http://localhost:65535', 'http://[::1]:8080'];
    const credentials = ['a', 'main', 'a-very-long-credential-name-for-the-staging-receiver'];
    const bookingNumbers = ['4EDZPM', 'AB12CD'];
    for (const origin of origins)
      for (const credentialId of credentials)
        for (const bookingNumber of bookingNumbers)
          for (const [number, trigger, durationMs] of [
            [1, 'first', 3],
            [5, 'manual', 299_999],
          ] as const)
            for (const emulatorTime of [false, true]) {
              const fields = activityLine(
                {
                  kind: 'attempt',
                  notification: summary({ credentialId, bookingNumber, id: 'n-123456' }),
                  attempt: attempt({ number, trigger, durationMs }),
                },
                'manual',
                origin,
              )!.fields;
              const rec = { level: 30, time: '2026-11-22T12:00:03.000Z', msg: 'm', ...fields };
              const line = prettyLine(JSON.stringify(rec), false, { emulatorTime }).trimEnd();
              const about = `${origin} ${credentialId} ${bookingNumber} ${durationMs} ${emulatorTime}: ${line}`;
              expect(line.length, about).toBeLessThanOrEqual(120);
              expect(line, about).toContain(` ${bookingNumber} `);
              expect(line.endsWith(` ${String(fields.link)}`), about).toBe(true);
              const named = line
                .slice(0, line.indexOf(` ${bookingNumber} `))
                .split(' ')
                .at(-1)!;
              expect(
                credentialId.startsWith(named.replace(/…$/, '')) &&
                  named.length >= Math.min(2, credentialId.length),
                about,
              ).toBe(true);
            }
  });

  it('colours with ANSI codes only when asked (a terminal), green for success and red for failure', () => {
    const ok = prettyLine(
      JSON.stringify({ level: 30, emulatorTime: 'T', kind: 'admin', msg: 'm', ok: true }),
      true,
    );
    expect(ok).toContain('\u001b[32mm\u001b[0m');
    const failed = prettyLine(JSON.stringify({ level: 30, kind: 'admin', msg: 'm', ok: false }), true);
    expect(failed).toContain('\u001b[31mm\u001b[0m');
    expect(prettyLine(json, false)).not.toContain('\u001b[');
  });
});

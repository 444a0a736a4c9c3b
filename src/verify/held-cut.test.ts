import { describe, expect, it } from 'vitest';
import type { Attempt, NotificationRecord } from '../delivery/index.js';
import { HELD_MS, heldCutInMs, heldMsAfter, OUTSIDE_COPIES, VerifyContext, waitOutside } from './context.js';
import { resolveOptions } from './options.js';

// Decision 0239: without --budget, deliveries still waiting are cut once the receiver has answered
// nothing for HELD_MS, not once one delivery has waited that long. Instants are given, not measured.

const T = Date.parse('2026-04-27T10:00:00.000Z');
const attempt = (startMs: number, durationMs: number, outcome: Attempt['outcome'] = 'http_status') =>
  ({ startedAtWall: new Date(startMs).toISOString(), durationMs, outcome }) as Attempt;
const record = (...attempts: Attempt[]) => ({ attempts }) as unknown as NotificationRecord;

describe('the held cut', () => {
  it('is due at once when the receiver never answered', () => {
    expect(heldCutInMs([record(), record(attempt(T, 0, 'interrupted'))], T)).toBe(0);
  });

  it('waits HELD_MS from the last answer of any delivery, however long the others have waited', () => {
    // One delivery has waited 14 s; another was answered 3 s ago: 7 s more.
    const waiting = record();
    const answered = record(attempt(T + 10_000, 1_000));
    expect(heldCutInMs([waiting, answered], T + 14_000)).toBe(HELD_MS - 3_000);
    expect(heldCutInMs([waiting, answered], T + 11_000 + HELD_MS)).toBe(0);
  });

  it('waits HELD_MS from the last sign of life too: a TLS handshake completed is work going on', () => {
    // Nothing answered yet, but a handshake completed 2 s ago (a starved receiver): 8 s more.
    expect(heldCutInMs([record()], T + 12_000, T + 10_000)).toBe(HELD_MS - 2_000);
    expect(heldCutInMs([record()], T + 10_000 + HELD_MS, T + 10_000)).toBe(0);
  });

  it('waits twice the slowest answer the receiver gave in the run, when that is longer, up to the response timeout', () => {
    expect(heldMsAfter([], 30_000)).toBe(HELD_MS);
    expect(heldMsAfter([40, 4_000], 30_000)).toBe(HELD_MS);
    expect(heldMsAfter([40, 8_700], 30_000)).toBe(17_400);
    expect(heldMsAfter([20_000], 30_000)).toBe(30_000);
    // A receiver that once took 8.7 s, silent for 12 s: not due yet.
    expect(heldCutInMs([record()], T + 12_000, T, heldMsAfter([8_700], 30_000))).toBe(5_400);
  });

  it('counts only answers: a timeout or a refused connection is not one', () => {
    const records = [
      record(attempt(T, 500), attempt(T + 5_000, 30_000, 'timeout')),
      record(attempt(T + 9_000, 0, 'connect_refused')),
    ];
    expect(heldCutInMs(records, T + 500 + HELD_MS)).toBe(0);
  });
});

// Decision 0256: deliveries still waiting while copies of one of them, each sent alone on a new
// connection, are answered and none of the deliveries is, wait outside the receiver.
describe('held outside the receiver', () => {
  const waiting = () => ({ attempts: [], inFlight: true }) as unknown as NotificationRecord;
  const copy = (sentMs: number, answer: string | undefined = 'HTTP 200') => ({ sentMs, answer });
  const copies = [copy(T + 4_000), copy(T + 5_200), copy(T + 6_400)];

  it(`holds once ${OUTSIDE_COPIES} copies in a row were answered and no delivery since the first of them`, () => {
    const answeredBefore = record(attempt(T, 2_000));
    expect(waitOutside([answeredBefore, waiting()], copies)).toBe(true);
    expect(waitOutside([answeredBefore, waiting()], copies.slice(0, OUTSIDE_COPIES - 1))).toBe(false);
  });

  it('does not hold while the receiver answers a delivery between the copies: it is working through them', () => {
    const answeredBetween = record(attempt(T + 1_000, 4_500));
    expect(waitOutside([answeredBetween, waiting()], copies)).toBe(false);
    // A copy unanswered shows nothing: the run of answered copies starts again after it.
    const gap = [copy(T + 4_000), { sentMs: T + 5_200, answer: undefined }, copy(T + 6_400), copy(T + 7_600)];
    expect(waitOutside([waiting()], gap)).toBe(false);
    expect(waitOutside([waiting()], [...gap, copy(T + 8_800)])).toBe(true);
  });

  it('does not hold while deliveries still get into the receiver (a handshake completed since the first copy)', () => {
    expect(waitOutside([waiting()], copies, T + 4_500)).toBe(false);
    expect(waitOutside([waiting()], copies, T + 3_900)).toBe(true);
  });

  it('does not hold when nothing waits', () => {
    expect(waitOutside([record(attempt(T, 100))], copies)).toBe(false);
  });
});

describe("the stall watch's work for a case", () => {
  it('ends when the case ends: the signal its copies and their pause wait on aborts at the next case and at the finish', async () => {
    const options = await resolveOptions({
      receiver: 'http://127.0.0.1:9/reportbo',
      apiKey: 'held-cut-key',
      allowHttp: true,
    });
    const ctx = await VerifyContext.create(options);
    try {
      await ctx.beginCase('acknowledges-issue');
      const first = ctx.caseEnded;
      expect(first.aborted).toBe(false);
      await ctx.beginCase('acknowledges-every-status');
      const second = ctx.caseEnded;
      expect([first.aborted, second.aborted]).toEqual([true, false]);
      ctx.finish();
      expect(second.aborted).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});

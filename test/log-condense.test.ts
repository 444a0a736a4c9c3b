/**
 * Condensed lines (decisions 0140 and 0210): under a burst of GetAccessToken calls and delivery
 * attempts the log writes at most `logLinesPerSecond` successes of each kind a second and one summary
 * line for the rest; a refused call, a failed attempt or a refused admin call always has its line. Counted, not timed: whatever the machine's
 * speed, lines plus the summaries' counts name every call.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { LineBudget } from '../src/activity/condense.js';
import { PRETTY_WIDTH, prettyLine } from '../src/log.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { behave, receiver } from './helpers/receiver.js';

type Rec = Record<string, unknown> & {
  kind?: string;
  msg: string;
  condensed?: { count: number };
};

/** A pino logger whose JSON lines the test reads back (the emulator's own format, minus the fd). */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'info', timestamp: pino.stdTimeFunctions.isoTime }, stream);
  return { logger, records: () => lines.map((l) => JSON.parse(l) as Rec), raw: () => lines };
}

let running: RunningEmulator | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const user = { username: 'alice', password: 'secret', idWeb: 1, webDescription: 'A', versions: ['1.7'] };

async function burst(url: string, calls: Array<'ok' | 'refused'>) {
  const statuses = await Promise.all(
    calls.map(async (kind) => {
      const res = await fetch(`${url}/api/1.7/AuthService.json/GetAccessToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Username: 'alice', Password: kind === 'ok' ? 'secret' : 'wrong' }),
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  expect(statuses.every((s) => s === 200)).toBe(true);
}

/** Waits until the token lines and summaries account for `total` calls. */
async function accounted(records: () => Rec[], kind: string, total: number) {
  for (let i = 0; i < 200; i++) {
    const mine = records().filter((r) => r.kind === kind);
    const named = mine.reduce((sum, r) => sum + (r.condensed ? r.condensed.count : 1), 0);
    if (named >= total) return mine;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the ${kind} lines never accounted for ${total} calls:\n${records().length} lines`);
}

describe('condensed GetAccessToken lines', () => {
  it('writes at most the budget of ok lines, every refused call, and a summary naming the rest', async () => {
    const log = capture();
    running = await startServer(
      { port: 0, clock: 'manual', logLinesPerSecond: 10 },
      { logger: log.logger },
      { users: [user] },
    );
    // 8 refused calls spread through 400 ok ones: fewer refused than the budget, so each has its line.
    const calls = Array.from({ length: 408 }, (_, i): 'ok' | 'refused' => (i % 51 === 50 ? 'refused' : 'ok'));
    await burst(running.url, calls);
    await running.close();
    running = undefined;
    const lines = await accounted(log.records, 'token', calls.length);
    const summaries = lines.filter((r) => r.condensed);
    const own = lines.filter((r) => !r.condensed);
    expect(summaries.length).toBeGreaterThan(0);
    // Every call is named once: by its own line or in a summary's count.
    expect(own.length + summaries.reduce((s, r) => s + r.condensed!.count, 0)).toBe(calls.length);
    // Every refused call has its own line.
    expect(own.filter((r) => r.outcome !== 'ok')).toHaveLength(8);
    // At most 10 ok lines a second: before the first summary, 10 for each second the burst had begun
    // (a slow machine may spread the burst's start over several; LineBudget's own test below pins
    // the second on a clock of its own).
    const firstSummary = lines.indexOf(summaries[0]!);
    const before = lines.slice(0, firstSummary);
    const seconds = Math.max(
      1,
      Math.ceil((Date.parse(String(summaries[0]!.time)) - Date.parse(String(before[0]!.time))) / 1000),
    );
    expect(before.filter((r) => r.outcome === 'ok').length).toBeLessThanOrEqual(10 * seconds);
    expect(before.filter((r) => r.outcome === 'ok').length).toBeLessThan(calls.length / 4);
    expect(summaries[0]!.msg).toMatch(
      /^[\d,]+ more GetAccessToken calls? in the last second, all ok; GET \/__admin\/requests lists them$/,
    );
    // The pretty format condenses the same way: it prints the summary line as it is, within its width.
    const raw = log.raw().find((l) => l.includes('"condensed"') && l.includes('"kind":"token"'))!;
    const pretty = prettyLine(raw, false);
    expect(pretty).toMatch(/ more this second, all ok; GET \/__admin\/requests\n$/);
    expect(pretty.trimEnd().length).toBeLessThanOrEqual(PRETTY_WIDTH);
  });

  it('gives every refused call its own line, however far past the budget (issue 43 §8)', async () => {
    const log = capture();
    running = await startServer(
      { port: 0, clock: 'manual', logLinesPerSecond: 2 },
      { logger: log.logger },
      { users: [user] },
    );
    const calls = [
      ...Array.from({ length: 30 }, () => 'refused' as const),
      ...Array.from({ length: 30 }, () => 'ok' as const),
    ];
    await burst(running.url, calls);
    await running.close();
    running = undefined;
    const lines = await accounted(log.records, 'token', calls.length);
    expect(lines.filter((r) => !r.condensed && r.outcome !== 'ok')).toHaveLength(30);
    const summaries = lines.filter((r) => r.condensed);
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((r) => r.ok === true)).toBe(true);
  });

  it('gives every refused admin call its own line, however far past the budget (issue 43 §8)', async () => {
    const log = capture();
    running = await startServer({ port: 0, clock: 'manual', logLinesPerSecond: 2 }, { logger: log.logger });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () =>
        fetch(`${running!.url}/__admin/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'Nothing' }),
        }).then((r) => r.status),
      ),
    );
    expect(statuses.every((s) => s === 400)).toBe(true);
    await running.close();
    running = undefined;
    const refused = log.records().filter((r) => r.kind === 'refused');
    expect(refused.filter((r) => !r.condensed)).toHaveLength(30);
    expect(refused.some((r) => r.condensed)).toBe(false);
  });

  it('0 writes every line', async () => {
    const log = capture();
    running = await startServer(
      { port: 0, clock: 'manual', logLinesPerSecond: 0 },
      { logger: log.logger },
      { users: [user] },
    );
    await burst(
      running.url,
      Array.from({ length: 60 }, () => 'ok' as const),
    );
    await running.close();
    running = undefined;
    const lines = log.records().filter((r) => r.kind === 'token');
    expect(lines).toHaveLength(60);
    expect(lines.some((r) => r.condensed)).toBe(false);
  });
});

describe('condensed attempt lines', () => {
  it('condenses delivered attempts and never hides a failed one', async () => {
    const good = await receiver();
    const bad = await receiver({ defaultBehaviour: behave.status(503) });
    const log = capture();
    running = await startServer(
      { port: 0, clock: 'manual', allowHttp: true, logLinesPerSecond: 5 },
      { logger: log.logger },
    );
    const post = (path: string, body: unknown) =>
      fetch(`${running!.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await post('/__admin/credentials', { id: 'good', apiKey: 'k', url: good.url });
    await post('/__admin/credentials', {
      id: 'bad',
      apiKey: 'k',
      url: bad.url,
      filters: { pcc: ['BAD001'] },
    });
    const events = [
      ...Array.from({ length: 40 }, () => ({ type: 'Issue' })),
      ...Array.from({ length: 12 }, () => ({
        type: 'Issue',
        overrides: { Reservation: { PCCBook: 'BAD001' } },
      })),
    ];
    for (const e of events) await post('/__admin/events', e);
    await fetch(`${running.url}/__admin/notifications?wait=settled`).then((r) => r.json());
    // 40 to good, 12 to both good and bad: more failures than the budget of 5.
    const attempts = 64;
    await running.close();
    running = undefined;
    const lines = await accounted(log.records, 'attempt', attempts);
    const own = lines.filter((r) => !r.condensed);
    const summaries = lines.filter((r) => r.condensed);
    expect(summaries.length).toBeGreaterThan(0);
    expect(own.length + summaries.reduce((s, r) => s + r.condensed!.count, 0)).toBe(attempts);
    expect(own.filter((r) => r.ok === false).map((r) => r.credentialId)).toEqual(Array(12).fill('bad'));
    expect(summaries[0]!.msg).toMatch(
      /^[\d,]+ more delivery attempts? in the last second, all delivered; GET \/__admin\/notifications lists them$/,
    );
    await good.close();
    await bad.close();
  });
});

describe('LineBudget', () => {
  it('starts a new second once a second has passed on its clock, and writes the held summary first', () => {
    let now = 0;
    const seconds: number[] = [];
    const budget = new LineBudget(
      2,
      (s) => seconds.push(s.count),
      () => now,
    );
    const admitted = [true, true, true, true].map(() => budget.admit(true));
    expect(admitted).toEqual([true, true, false, false]);
    // A failure is never held back, past the budget too.
    expect([false, false, false].map((ok) => budget.admit(ok))).toEqual([true, true, true]);
    now = 1_000;
    expect(budget.admit(true)).toBe(true);
    expect(seconds).toEqual([2]);
    budget.flush();
    expect(seconds).toEqual([2]); // nothing held in the new second
  });
});

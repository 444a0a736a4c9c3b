import { describe, expect, it } from 'vitest';
import { type ChangeOwner, RESET } from '../model/change-sink.js';
import {
  JOURNAL_ATTACHMENT,
  Journal,
  type JournalChange,
  type JournalEntry,
  MAX_JOURNAL_ENTRIES,
} from './journal.js';

type Call = Omit<JournalEntry, 'id'>;

const call = (n: number, over: Partial<Call> = {}): Call => ({
  at: new Date(Date.UTC(2026, 3, 27, 10, 0, n)).toISOString(),
  version: n % 2 === 0 ? '1.7' : '1.6',
  variant: n % 3 === 0 ? 'soap11' : 'json',
  path: '/api/1.7/AuthService.json/GetAccessToken',
  username: n % 4 === 0 ? 'alice' : 'bob',
  outcome: n % 5 === 0 ? 'invalid_credentials' : 'ok',
  transactionCode: n % 5 === 0 ? '1200' : null,
  httpStatus: 200,
  warnings: [],
  ...over,
});

const ids = (entries: JournalEntry[]) => entries.map((e) => e.id);

describe('Journal', () => {
  it('numbers entries r-000001 onwards and lists them oldest first', () => {
    const journal = new Journal();
    const first = journal.record(call(1));
    journal.record(call(2, { fault: { id: 'f-1', kind: 'delay' } }));
    expect(first).toEqual({ id: 'r-000001', ...call(1) });
    expect(ids(journal.list())).toEqual(['r-000001', 'r-000002']);
    expect(journal.list()[1]?.fault).toEqual({ id: 'f-1', kind: 'delay' });
  });

  it('keeps exactly the limit, then drops the oldest one per new call', () => {
    const journal = new Journal(4);
    for (let n = 1; n <= 4; n++) journal.record(call(n));
    expect(ids(journal.list())).toEqual(['r-000001', 'r-000002', 'r-000003', 'r-000004']);
    journal.record(call(5));
    expect(ids(journal.list())).toEqual(['r-000002', 'r-000003', 'r-000004', 'r-000005']);
    for (let n = 6; n <= 11; n++) journal.record(call(n));
    expect(ids(journal.list())).toEqual(['r-000008', 'r-000009', 'r-000010', 'r-000011']);
  });

  it('applies every filter to the kept entries only, oldest first', () => {
    const journal = new Journal(10);
    for (let n = 1; n <= 25; n++) journal.record(call(n));
    // Kept: 16..25. Of those, 1.7 (even) and json (not a multiple of 3): 16, 20, 22.
    expect(ids(journal.list({ version: '1.7', variant: 'json' }))).toEqual([
      'r-000016',
      'r-000020',
      'r-000022',
    ]);
    expect(ids(journal.list({ username: 'alice' }))).toEqual(['r-000016', 'r-000020', 'r-000024']);
    expect(ids(journal.list({ outcome: 'invalid_credentials' }))).toEqual(['r-000020', 'r-000025']);
    expect(journal.list({ username: 'nobody' })).toEqual([]);
  });

  it('forgets entries and restarts numbering on reset', () => {
    const journal = new Journal(3);
    for (let n = 1; n <= 7; n++) journal.record(call(n));
    journal.apply(RESET);
    expect(journal.list()).toEqual([]);
    journal.record(call(1));
    expect(ids(journal.list())).toEqual(['r-000001']);
  });

  it('keeps MAX_JOURNAL_ENTRIES by default', () => {
    const journal = new Journal();
    for (let n = 1; n <= MAX_JOURNAL_ENTRIES + 3; n++) journal.record(call(n));
    const kept = journal.list();
    expect(kept).toHaveLength(MAX_JOURNAL_ENTRIES);
    expect(kept[0]?.id).toBe('r-000004');
    expect(kept.at(-1)?.id).toBe(`r-${String(MAX_JOURNAL_ENTRIES + 3).padStart(6, '0')}`);
  });
});

describe('Journal size', () => {
  it('keeps the attachment (the call as sent and answered) only on its newest entries', () => {
    const journal = new Journal(10, undefined, 3);
    const entries = Array.from({ length: 6 }, (_, i) => {
      const e = journal.record(call(i + 1)) as JournalEntry & { [JOURNAL_ATTACHMENT]?: unknown };
      e[JOURNAL_ATTACHMENT] = { call: i + 1 };
      return e;
    });
    expect(entries.map((e) => e[JOURNAL_ATTACHMENT] !== undefined)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(ids(journal.list())).toHaveLength(6); // the summaries stay
  });

  it('0 turns it off: nothing is kept, every call is still numbered and announced', () => {
    const heard: string[] = [];
    const changes = {
      emit: (c: JournalChange, owner?: ChangeOwner<JournalChange>) => owner?.apply(c),
      emitMade: (c: JournalChange, owner?: ChangeOwner<JournalChange>) => {
        heard.push(c.entry.id);
        owner?.apply(c);
      },
    };
    const journal = new Journal(0, changes);
    expect(journal.enabled).toBe(false);
    journal.record(call(1));
    journal.record(call(2));
    expect(journal.list()).toEqual([]);
    expect(heard).toEqual(['r-000001', 'r-000002']);
  });
});

import type { z } from 'zod';
import type { JournalEntryShape } from '../model/auth.js';
import { APPLY_ONLY, type ChangeSink, lazily, type ResetChange } from '../model/change-sink.js';
import { RingBuffer } from './ring-buffer.js';

/** Most journal entries kept by default; older ones are dropped first (a load test must not exhaust memory). */
export const MAX_JOURNAL_ENTRIES = 10_000;
/**
 * How many of the newest entries keep their attachment (the call's request and answer, see
 * JOURNAL_ATTACHMENT): the dashboard shows the newest 500 calls; older entries keep their summary.
 */
export const JOURNAL_EXCHANGE_ENTRIES = 500;
/**
 * Where a journal entry carries what the transport kept of its call (src/api/exchange.ts): a symbol,
 * so JSON (admin answers, the data dir) never sees it. The journal clears it once the entry is older
 * than its newest JOURNAL_EXCHANGE_ENTRIES, so a full journal holds 500 exchanges, not 10,000.
 */
export const JOURNAL_ATTACHMENT = Symbol('reportbo.journal.attachment');

/** One GetAccessToken call as received (admin `GET /__admin/requests`). */
export type JournalEntry = z.output<typeof JournalEntryShape>;

/** What the journal changed (src/change-stream.ts). */
export type JournalChange = { kind: 'call_journaled'; entry: JournalEntry };

export interface JournalFilter {
  version?: string;
  variant?: string;
  username?: string;
  outcome?: string;
}

/**
 * Records every GetAccessToken call, the last `maxEntries` of them (the `journalEntries` setting;
 * 0: none, the journal is off); cleared by reset.
 */
export class Journal {
  readonly #entries: RingBuffer<JournalEntry> | undefined;
  readonly #exchanges: number;
  #seq = 0;

  readonly #changes: ChangeSink<JournalChange>;

  /** `changes` hears of every entry (also with the journal off: the log and the live stream still tell of calls). */
  constructor(
    maxEntries = MAX_JOURNAL_ENTRIES,
    changes: ChangeSink<JournalChange> = APPLY_ONLY,
    exchanges = JOURNAL_EXCHANGE_ENTRIES,
  ) {
    this.#entries = maxEntries > 0 ? new RingBuffer(maxEntries) : undefined;
    this.#exchanges = exchanges;
    this.#changes = changes;
  }

  /** False when the journal keeps nothing (`journalEntries` 0). */
  get enabled(): boolean {
    return this.#entries !== undefined;
  }

  /** How many entries it keeps at most. */
  get capacity(): number {
    return this.#entries?.capacity ?? 0;
  }

  /**
   * Gives the entry its id and appends it (the object itself: the call's path builds it once); the
   * oldest entry is dropped once the journal is full, and the entry that just left the newest
   * JOURNAL_EXCHANGE_ENTRIES loses its attachment.
   */
  record(entry: Omit<JournalEntry, 'id'> & { id?: string }): JournalEntry {
    const full = entry as JournalEntry;
    full.id = `r-${String(this.#seq + 1).padStart(6, '0')}`;
    // A record of a call already answered: kept after the fact, like an attempt (the call happened).
    this.#changes.emitMade({ kind: 'call_journaled', entry: full }, this);
    return full;
  }

  /**
   * The one writer of the journal (decision 0212), live and at a restart: an entry is appended (the
   * object itself: the call's path builds it once); the oldest is dropped once the journal is full,
   * and the entry that just left the newest JOURNAL_EXCHANGE_ENTRIES loses its attachment. Reset
   * forgets every entry and restarts the ids.
   */
  apply(change: JournalChange | ResetChange): void {
    switch (change.kind) {
      case 'call_journaled': {
        this.#seq = Math.max(this.#seq, Number(change.entry.id.slice(2)));
        const entries = this.#entries;
        if (!entries) break;
        entries.push(change.entry);
        const aged = entries.fromNewest(this.#exchanges) as
          | (JournalEntry & { [JOURNAL_ATTACHMENT]?: unknown })
          | undefined;
        if (aged?.[JOURNAL_ATTACHMENT] !== undefined) aged[JOURNAL_ATTACHMENT] = undefined;
        break;
      }
      case 'reset':
        this.#entries?.clear();
        this.#seq = 0;
        break;
    }
  }

  /** The entries, oldest first, as the changes that journal them (`ChangeOwner`, decision 0274). */
  asChanges(): Iterable<JournalChange> {
    return lazily(this.list(), (entry): JournalChange[] => [{ kind: 'call_journaled', entry }]);
  }

  /** Entries, oldest first, that match every given filter. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.#entries?.filter(journalFilter(filter)) ?? [];
  }
}

/** Whether an entry matches every given filter (what `list(filter)` keeps; the admin list pages with it). */
export function journalFilter(filter: JournalFilter): (e: JournalEntry) => boolean {
  return (e) =>
    (filter.version === undefined || e.version === filter.version) &&
    (filter.variant === undefined || e.variant === filter.variant) &&
    (filter.username === undefined || e.username === filter.username) &&
    (filter.outcome === undefined || e.outcome === filter.outcome);
}

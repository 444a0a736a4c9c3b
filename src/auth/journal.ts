import type { z } from 'zod';
import type { JournalEntryShape } from '../model/auth.js';
import { APPLY_ONLY, type ChangeSink } from '../model/change-sink.js';
import { RingBuffer } from './ring-buffer.js';

/** Most journal entries kept; older ones are dropped first (a load test must not exhaust memory). */
export const MAX_JOURNAL_ENTRIES = 10_000;

/** One GetAccessToken call as received (admin `GET /__admin/requests`). */
export type JournalEntry = z.output<typeof JournalEntryShape>;

export interface JournalFilter {
  version?: string;
  variant?: string;
  username?: string;
  outcome?: string;
}

/** What the journal changed (src/model/change.ts). */
export type JournalChange = { kind: 'call_journaled'; entry: JournalEntry };

/** Records every GetAccessToken call, the last MAX_JOURNAL_ENTRIES of them; cleared by reset. */
export class Journal {
  readonly #entries: RingBuffer<JournalEntry>;
  #seq = 0;

  readonly #changes: ChangeSink<JournalChange>;

  /** `maxEntries` is for tests; the emulator keeps MAX_JOURNAL_ENTRIES. `changes` hears of every entry. */
  constructor(maxEntries = MAX_JOURNAL_ENTRIES, changes: ChangeSink<JournalChange> = APPLY_ONLY) {
    this.#entries = new RingBuffer(maxEntries);
    this.#changes = changes;
  }

  /** Appends an entry, giving it an id; the oldest entry is dropped once the journal is full. */
  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: `r-${String(++this.#seq).padStart(6, '0')}`, ...entry };
    this.#entries.push(full);
    // A record of a call already answered: kept after the fact, like an attempt (the call happened).
    this.#changes.emitMade({ kind: 'call_journaled', entry: full });
    return full;
  }

  /** Entries, oldest first, that match every given filter. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.#entries.filter(
      (e) =>
        (filter.version === undefined || e.version === filter.version) &&
        (filter.variant === undefined || e.variant === filter.variant) &&
        (filter.username === undefined || e.username === filter.username) &&
        (filter.outcome === undefined || e.outcome === filter.outcome),
    );
  }

  /** Takes entries read back from a data dir (decision 0080); ids go on after the highest. */
  restore(entries: Iterable<JournalEntry>): void {
    for (const e of entries) {
      this.#entries.push(e);
      this.#seq = Math.max(this.#seq, Number(e.id.slice(2)));
    }
  }

  reset(): void {
    this.#entries.clear();
    this.#seq = 0;
  }
}

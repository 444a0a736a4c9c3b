import type { ApiVersion, AuthOutcome, Variant } from './types.js';

/** Most journal entries kept; older ones are dropped first (a load test must not exhaust memory). */
export const MAX_JOURNAL_ENTRIES = 10_000;

/** One GetAccessToken call as received (admin `GET /__admin/requests`). */
export interface JournalEntry {
  id: string;
  at: string;
  version: ApiVersion;
  variant: Variant;
  path: string;
  username: string | null;
  outcome: AuthOutcome;
  transactionCode: string | null;
  httpStatus: number;
  warnings: string[];
  fault?: { id: string; kind: string };
}

export interface JournalFilter {
  version?: string;
  variant?: string;
  username?: string;
  outcome?: string;
}

/** Records every GetAccessToken call; cleared by reset. */
export class Journal {
  #entries: JournalEntry[] = [];
  #seq = 0;

  /** Appends an entry, giving it an id. */
  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: `r-${String(++this.#seq).padStart(6, '0')}`, ...entry };
    this.#entries.push(full);
    if (this.#entries.length > MAX_JOURNAL_ENTRIES)
      this.#entries.splice(0, this.#entries.length - MAX_JOURNAL_ENTRIES);
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

  reset(): void {
    this.#entries = [];
    this.#seq = 0;
  }
}

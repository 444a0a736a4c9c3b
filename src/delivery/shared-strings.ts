/**
 * Sharing of the strings every notification record holds, so 100,000 pending notifications do not
 * hold 100,000 equal copies (decision 0018: ≤ 300 MB RSS for 100,000 pending, ~2 KB per notification).
 */

/** Longest string an Interner shares; longer ones are kept as given. */
export const INTERN_MAX_LENGTH = 512;
/** Most distinct strings an Interner remembers; past it new ones are kept as given (bounded memory). */
export const INTERN_MAX_ENTRIES = 1024;

/**
 * ISO 8601 text of instants, reusing the last string while the millisecond repeats: a manual or
 * compressed clock gives thousands of notifications the same createdAt, startedAt and finishedAt.
 */
export class IsoStrings {
  #ms = Number.NaN;
  #text = '';

  of(date: Date): string {
    const ms = date.getTime();
    if (ms !== this.#ms) {
      this.#ms = ms;
      this.#text = date.toISOString();
    }
    return this.#text;
  }
}

/**
 * Answers one shared instance per distinct short string: attempt messages and response bodies repeat
 * (`receiver answered 503; only 200 acknowledges`), but each attempt builds its own copy.
 */
export class Interner {
  readonly #strings = new Map<string, string>();

  of(text: string): string {
    if (text.length > INTERN_MAX_LENGTH) return text;
    const shared = this.#strings.get(text);
    if (shared !== undefined) return shared;
    if (this.#strings.size < INTERN_MAX_ENTRIES) this.#strings.set(text, text);
    return text;
  }

  clear(): void {
    this.#strings.clear();
  }
}

/**
 * One shared instance per distinct set of response headers: a receiver answers every attempt of a
 * burst with the same few headers (the `date` header changes once a second), so 100,000 attempts
 * keep a handful of records instead of 100,000.
 */
export class SharedRecords {
  readonly #records = new Map<string, Readonly<Record<string, string>>>();

  of(record: Record<string, string>): Readonly<Record<string, string>> {
    const key = JSON.stringify(record);
    if (key.length > INTERN_MAX_LENGTH * 8) return record;
    const shared = this.#records.get(key);
    if (shared !== undefined) return shared;
    // Past the bound the oldest half goes: headers change with the second, old ones are not met again.
    if (this.#records.size >= INTERN_MAX_ENTRIES) {
      let drop = this.#records.size / 2;
      for (const k of this.#records.keys()) {
        if (drop-- <= 0) break;
        this.#records.delete(k);
      }
    }
    this.#records.set(key, record);
    return record;
  }

  clear(): void {
    this.#records.clear();
  }
}

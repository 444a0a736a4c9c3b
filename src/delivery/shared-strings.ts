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

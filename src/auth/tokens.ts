import type { Clock } from '../clock/index.js';
import { NotFoundError } from '../errors.js';
import { RingBuffer } from './ring-buffer.js';
import type { TokenSource } from './token-source.js';
import type { ApiVersion } from './types.js';

/** Token lifetime: 8 hours of emulator time (spec "Limits", "Authentication" 2). */
export const TOKEN_LIFETIME_MS = 8 * 60 * 60 * 1000;
/** Most tokens remembered; the oldest are forgotten first, so a load test cannot exhaust memory. */
export const MAX_TOKENS = 100_000;

export interface IssuedToken {
  token: string;
  username: string;
  version: ApiVersion;
  issuedAt: Date;
  expiresAt: Date;
  revoked: boolean;
}

/** The admin view of a token: times as ISO strings and `expired` judged on the emulator clock. */
export interface TokenView {
  token: string;
  username: string;
  version: ApiVersion;
  issuedAt: string;
  expiresAt: string;
  expired: boolean;
  revoked: boolean;
}

/** Issues and remembers session tokens; expiry is read from the emulator clock. */
export class TokenStore {
  readonly #tokens = new Map<string, IssuedToken>();
  /**
   * Tokens in issue order, so the oldest is found in O(1). Asking the Map for its first key instead
   * (`keys().next()`) walks past every deleted entry V8 keeps until it rehashes: ~50 µs per issue
   * after 100,000 tokens.
   */
  readonly #order: RingBuffer<string>;

  constructor(
    private readonly clock: Clock,
    private readonly newSource: () => TokenSource,
    private source: TokenSource = newSource(),
    /** For tests; the emulator keeps MAX_TOKENS. */
    maxTokens = MAX_TOKENS,
  ) {
    this.#order = new RingBuffer(maxTokens);
  }

  /** Issues a token valid TOKEN_LIFETIME_MS from now (emulator time). */
  issue(username: string, version: ApiVersion): IssuedToken {
    const issuedAt = this.clock.now();
    let token = this.source();
    while (this.#tokens.has(token)) token = this.source();
    const issued: IssuedToken = {
      token,
      username,
      version,
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + TOKEN_LIFETIME_MS),
      revoked: false,
    };
    const oldest = this.#order.push(token);
    if (oldest !== undefined) this.#tokens.delete(oldest);
    this.#tokens.set(token, issued);
    return issued;
  }

  /** Tokens, oldest first, optionally of one user. */
  list(filter: { username?: string } = {}): TokenView[] {
    const now = this.clock.now().getTime();
    const out: TokenView[] = [];
    for (const t of this.#tokens.values()) {
      if (filter.username !== undefined && t.username !== filter.username) continue;
      out.push({
        token: t.token,
        username: t.username,
        version: t.version,
        issuedAt: t.issuedAt.toISOString(),
        expiresAt: t.expiresAt.toISOString(),
        expired: now >= t.expiresAt.getTime(),
        revoked: t.revoked,
      });
    }
    return out;
  }

  /** Marks a token revoked; 404 when unknown. */
  revoke(token: string): void {
    const t = this.#tokens.get(token);
    if (!t)
      throw new NotFoundError('token_not_found', `No token "${token}". GET /__admin/tokens lists them.`);
    t.revoked = true;
  }

  /** Forgets every token and restarts the token source (a seeded run issues the same tokens again). */
  reset(): void {
    this.#tokens.clear();
    this.#order.clear();
    this.source = this.newSource();
  }
}

import type { z } from 'zod';
import type { Clock } from '../clock/index.js';
import { NotFoundError } from '../errors.js';
import type { TokenShape } from '../model/auth.js';
import { APPLY_ONLY, type ChangeSink, lazily, type ResetChange } from '../model/change-sink.js';
import { RingBuffer } from './ring-buffer.js';
import type { TokenSource } from './token-source.js';
import type { ApiVersion } from './types.js';

/** Token lifetime: 8 hours of emulator time (spec "Limits", "Authentication" 2). */
export const TOKEN_LIFETIME_MS = 8 * 60 * 60 * 1000;
/**
 * Most tokens remembered (listed by `GET /__admin/tokens`, revocable); the oldest are forgotten
 * first, expired or not, so a load test cannot grow memory: 10,000 tokens hold ~1.7 MB (see `Kept`).
 * Like the journal's cap. It was 100,000: 39 MB of heap that a 100,000-call load test kept, about a
 * fifth of the emulator's RSS after it (decision 0032). Forgetting a token changes nothing a client sees:
 * the emulated API never asks for a token back.
 */
export const MAX_TOKENS = 10_000;

export interface IssuedToken {
  token: string;
  username: string;
  version: ApiVersion;
  issuedAt: Date;
  expiresAt: Date;
  revoked: boolean;
}

/** What a TokenStore changed (src/change-stream.ts). */
export type TokenChange =
  | { kind: 'token_issued'; token: string; username: string; version: ApiVersion; issuedAtMs: number }
  | { kind: 'token_revoked'; token: string };

/** The admin view of a token: times as ISO strings and `expired` judged on the emulator clock. */
export type TokenView = z.output<typeof TokenShape>;

/**
 * What the store keeps per token: the issue time as a number and no token copy (it is the Map key).
 * With two Date objects per token the store held 391 bytes per token (39 MB at MAX_TOKENS);
 * this shape holds about 160 (measured with `--expose-gc`, heap after GC ÷ tokens).
 */
interface Kept {
  readonly username: string;
  readonly version: ApiVersion;
  readonly issuedAtMs: number;
  revoked: boolean;
}

/** Issues and remembers session tokens; expiry is read from the emulator clock. */
export class TokenStore {
  readonly #tokens = new Map<string, Kept>();
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
    private readonly changes: ChangeSink<TokenChange> = APPLY_ONLY,
  ) {
    this.#order = new RingBuffer(maxTokens);
  }

  /** Issues a token valid TOKEN_LIFETIME_MS from now (emulator time). */
  issue(username: string, version: ApiVersion): IssuedToken {
    const issuedAt = this.clock.now();
    let token = this.source();
    while (this.#tokens.has(token)) token = this.source();
    const issuedAtMs = issuedAt.getTime();
    this.changes.emit({ kind: 'token_issued', token, username, version, issuedAtMs }, this);
    return {
      token,
      username,
      version,
      issuedAt,
      expiresAt: new Date(issuedAtMs + TOKEN_LIFETIME_MS),
      revoked: false,
    };
  }

  /** Tokens, oldest first, optionally of one user. */
  list(filter: { username?: string } = {}): TokenView[] {
    const now = this.clock.now().getTime();
    const out: TokenView[] = [];
    for (const [token, t] of this.#tokens) {
      if (filter.username !== undefined && t.username !== filter.username) continue;
      const expiresAtMs = t.issuedAtMs + TOKEN_LIFETIME_MS;
      out.push({
        token,
        username: t.username,
        version: t.version,
        issuedAt: new Date(t.issuedAtMs).toISOString(),
        expiresAt: new Date(expiresAtMs).toISOString(),
        expired: now >= expiresAtMs,
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
    this.changes.emit({ kind: 'token_revoked', token }, this);
  }

  /**
   * The one writer of the tokens (decision 0212), live and at a restart: the oldest token is
   * forgotten once MAX_TOKENS are kept. Reset forgets every token and restarts the token source (a
   * seeded run issues the same tokens again).
   */
  apply(change: TokenChange | ResetChange): void {
    switch (change.kind) {
      case 'token_issued': {
        const { token, username, version, issuedAtMs } = change;
        const oldest = this.#order.push(token);
        if (oldest !== undefined) this.#tokens.delete(oldest);
        this.#tokens.set(token, { username, version, issuedAtMs, revoked: false });
        break;
      }
      case 'token_revoked': {
        const t = this.#tokens.get(change.token);
        if (t) t.revoked = true;
        break;
      }
      case 'reset':
        this.#tokens.clear();
        this.#order.clear();
        this.source = this.newSource();
        break;
    }
  }

  /**
   * The tokens, oldest first, as the changes that issue (and revoke) them (`ChangeOwner`, decision
   * 0274): the cut copies each token (`revoked` changes), not the admin view's two ISO strings.
   */
  asChanges(): Iterable<TokenChange> {
    const cut = Array.from(this.#tokens, ([token, t]) => ({ token, ...t }));
    return lazily(cut, ({ revoked, ...issued }): TokenChange[] => {
      const made: TokenChange = { kind: 'token_issued', ...issued };
      return revoked ? [made, { kind: 'token_revoked', token: issued.token }] : [made];
    });
  }
}

/** Token reuse: one call for many asks, and a refresh before ExpiresAt (spec "Authentication" 2, "Limits"). */
import { type ClientCase, count, fail, okCalls, pass, printedTokens, seconds, warn } from './case.js';

/**
 * refreshes-before-expiry's token lifetime: long enough for a few asks per token, short enough for
 * the case to see a refresh or two in about 6 s. An SDK's refresh margin must be below it (a fraction
 * of the lifetime, e.g. a fifth capped at a minute, works with 4 s and with 8 h alike).
 */
export const SHORT_LIFETIME_MS = 4000;
/**
 * How late a token line may arrive after its ExpiresAt and still count as printed in time: the
 * pipe between the harness and the kit takes a moment on a busy machine. A token handed out a
 * second late is still caught (the asks are 500 ms apart).
 */
export const PRINT_SLACK_MS = 500;

const REUSE_TOKENS = 20;

export const reusesValidToken: ClientCase = {
  id: 'reuses-valid-token',
  rule: 'spec "Authentication" 2: a token is valid 8 hours (ExpiresAt); one call serves every request until then',
  fix: 'Keep the token and its ExpiresAt; answer later asks from the cache until shortly before ExpiresAt.',
  ask: { tokens: REUSE_TOKENS, intervalMs: 0 },
  setting: `asked for ${REUSE_TOKENS} tokens in a row`,
  judge(seen) {
    const printed = printedTokens(seen);
    if (!Array.isArray(printed)) return printed;
    const calls = okCalls(seen.calls).length;
    if (calls > 1)
      return fail(
        `no cache: called GetAccessToken ${calls} times for ${REUSE_TOKENS} tokens asked for in a row (1 call would do: each token is valid 8 hours)`,
      );
    return pass(`1 call for ${REUSE_TOKENS} tokens`);
  },
};

const REFRESH_TOKENS = 12;
const REFRESH_INTERVAL_MS = 500;

export const refreshesBeforeExpiry: ClientCase = {
  id: 'refreshes-before-expiry',
  rule: 'spec "GetAccessTokenResponse (API 1.7)": ExpiresAt; a token is not valid after it',
  fix: 'Refresh when less than a margin is left before ExpiresAt (e.g. a fifth of the lifetime, at most a minute), never after it.',
  skip: (o) =>
    o.version === '1.6'
      ? 'API 1.6 answers a bare token without ExpiresAt; run with --version 1.7 to check refreshing'
      : undefined,
  stage: () => ({ tokenLifetimeMs: SHORT_LIFETIME_MS }),
  ask: { tokens: REFRESH_TOKENS, intervalMs: REFRESH_INTERVAL_MS },
  setting: `tokens live ${seconds(SHORT_LIFETIME_MS)} (ExpiresAt = issue + ${SHORT_LIFETIME_MS} ms); asked for ${REFRESH_TOKENS} tokens ${REFRESH_INTERVAL_MS} ms apart`,
  judge(seen) {
    const printed = printedTokens(seen);
    if (!Array.isArray(printed)) return printed;
    const late = printed
      .map((p, i) => ({ ...p, line: i + 1, lateMs: p.arrivedAtMs - p.expiresAtMs }))
      .filter((p) => p.lateMs > PRINT_SLACK_MS);
    if (late.length > 0) {
      const worst = late.reduce((a, b) => (b.lateMs > a.lateMs ? b : a));
      return fail(
        `refreshes after expiry: handed out ${count(late.length, 'expired token')} of ${printed.length}; line ${worst.line} came ${seconds(worst.lateMs)} after its ExpiresAt`,
      );
    }
    const calls = okCalls(seen.calls).length;
    const spanMs = Math.max(...printed.map((p) => p.arrivedAtMs)) - seen.stage.startedAtMs;
    // One refresh per half lifetime is plenty; a margin larger than the lifetime refreshes on every ask.
    const most = Math.ceil(spanMs / (SHORT_LIFETIME_MS / 2)) + 1;
    if (calls >= REFRESH_TOKENS)
      return warn(
        `called GetAccessToken for every one of the ${REFRESH_TOKENS} tokens: no token was reused (reuses-valid-token judges that)`,
      );
    if (calls > most)
      return fail(
        `refreshes too early: ${calls} calls for ${REFRESH_TOKENS} tokens over ${seconds(spanMs)} with a ${seconds(SHORT_LIFETIME_MS)} lifetime (at most ${most} expected)`,
        'Make the refresh margin a fraction of the lifetime (ExpiresAt − the time of the answer), not a fixed span longer than a short lifetime.',
      );
    const closest = Math.min(...printed.map((p) => p.expiresAtMs - p.arrivedAtMs));
    return pass(
      `${REFRESH_TOKENS} tokens, each valid when printed (the closest ${seconds(Math.max(0, closest))} before its ExpiresAt), ${count(calls, 'call')}`,
    );
  },
};

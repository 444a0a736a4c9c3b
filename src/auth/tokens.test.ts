import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/manual.js';
import { NotFoundError } from '../errors.js';
import { RESET } from '../model/change-sink.js';
import { seededTokenSource } from './token-source.js';
import { MAX_TOKENS, TOKEN_LIFETIME_MS, TokenStore } from './tokens.js';

const START = new Date('2026-04-27T10:00:00Z');

/** Tokens "t1", "t2", … so the order is readable. */
const counting = () => {
  let n = 0;
  return () => `t${++n}`;
};

describe('TokenStore', () => {
  it('issues tokens valid TOKEN_LIFETIME_MS on the emulator clock and lists them oldest first', () => {
    const store = new TokenStore(new ManualClock(START), counting);
    const a = store.issue('alice', '1.7');
    store.issue('bob', '1.6');
    expect(a.expiresAt.getTime() - a.issuedAt.getTime()).toBe(TOKEN_LIFETIME_MS);
    expect(store.list().map((t) => [t.token, t.username, t.version])).toEqual([
      ['t1', 'alice', '1.7'],
      ['t2', 'bob', '1.6'],
    ]);
    expect(store.list({ username: 'bob' }).map((t) => t.token)).toEqual(['t2']);
  });

  it('keeps exactly the limit, then forgets the oldest token per new one', () => {
    const store = new TokenStore(new ManualClock(START), counting, undefined, 3);
    for (let i = 0; i < 3; i++) store.issue('alice', '1.7');
    expect(store.list().map((t) => t.token)).toEqual(['t1', 't2', 't3']);
    store.issue('bob', '1.7');
    expect(store.list().map((t) => t.token)).toEqual(['t2', 't3', 't4']);
    for (let i = 0; i < 5; i++) store.issue('alice', '1.7');
    expect(store.list().map((t) => t.token)).toEqual(['t7', 't8', 't9']);
    expect(() => store.revoke('t6')).toThrow(NotFoundError);
    store.revoke('t8');
    expect(store.list().map((t) => t.revoked)).toEqual([false, true, false]);
  });

  it('never evicts on a token collision: the source is asked again', () => {
    const tokens = ['x', 'x', 'y'];
    const store = new TokenStore(new ManualClock(START), () => () => tokens.shift() ?? 'z', undefined, 2);
    store.issue('alice', '1.7');
    store.issue('alice', '1.7');
    expect(store.list().map((t) => t.token)).toEqual(['x', 'y']);
  });

  it('starts over after reset: the same seeded tokens, and the limit counted afresh', () => {
    const store = new TokenStore(new ManualClock(START), () => seededTokenSource(7), undefined, 2);
    const before = [
      store.issue('a', '1.7').token,
      store.issue('a', '1.7').token,
      store.issue('a', '1.7').token,
    ];
    store.apply(RESET);
    expect(store.list()).toEqual([]);
    const after = [store.issue('a', '1.7').token, store.issue('a', '1.7').token];
    expect(after).toEqual(before.slice(0, 2));
    expect(store.list().map((t) => t.token)).toEqual(after);
  });

  it('keeps MAX_TOKENS by default', () => {
    const store = new TokenStore(new ManualClock(START), counting);
    for (let i = 0; i < MAX_TOKENS + 2; i++) store.issue('alice', '1.7');
    const kept = store.list();
    expect(kept).toHaveLength(MAX_TOKENS);
    expect(kept[0]?.token).toBe('t3');
    expect(kept.at(-1)?.token).toBe(`t${MAX_TOKENS + 2}`);
  });
});

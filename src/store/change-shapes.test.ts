import { describe, expect, it } from 'vitest';
import { CHANGE_KINDS } from '../change-stream.js';
import { CHANGE_SHAPES } from '../model/changes.js';
import { FORMAT_2_SHAPES } from './format-2.js';
import { RECORD_SHAPES } from './kinds.js';

// Data dir format 3 (decision 0230): the journal's record kinds are the change kinds, read back
// through the change's own shape. A change kind added without its record shape, or a record kind
// that is no change, fails here (and `CHANGE_KINDS` does not compile while it misses a kind of `Change`).

/** The change kinds the data dir does not keep, and why. */
const NOT_KEPT: Record<string, string> = {
  event_routed: 'its reservations and notifications are changes of their own',
};

describe('the record kinds of a data dir', () => {
  it('are exactly the change kinds, but the ones kept by others', () => {
    const kept = CHANGE_KINDS.filter((k) => !(k in NOT_KEPT));
    expect(Object.keys(CHANGE_SHAPES).sort()).toEqual([...kept].sort());
    for (const k of Object.keys(NOT_KEPT)) expect(CHANGE_KINDS).toContain(k);
  });

  it('are read back by the change shapes, format 2 kinds beside them without a clash', () => {
    for (const k of Object.keys(CHANGE_SHAPES))
      expect(RECORD_SHAPES[k as keyof typeof RECORD_SHAPES]).toBe(
        CHANGE_SHAPES[k as keyof typeof CHANGE_SHAPES],
      );
    for (const k of Object.keys(FORMAT_2_SHAPES)) expect(CHANGE_KINDS).not.toContain(k);
  });
});

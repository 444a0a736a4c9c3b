/**
 * Where a store tells what it changed (decision 0110). Every mutating method of a store ends by
 * handing its change here; the emulator's `ChangeStream` (src/change-stream.ts) keeps it (the data
 * dir) and tells the observers (the log, the live stream). This module imports nothing, so every
 * domain folder can depend on it without depending on the others.
 */
export interface ChangeSink<C> {
  /**
   * A change asked for (an admin write, a token issued): `change` is kept first, then its owner's
   * `apply` makes it in memory, then observers hear it. If keeping throws (the data dir could not
   * write it), the throw reaches the caller and `apply` never runs: memory never runs ahead of the
   * journal.
   */
  emit(change: C, owner?: Applier<C>): void;
  /**
   * A change of the background (an attempt, a batch, a rule used up): nothing to undo, so a failure
   * to keep it is logged, never thrown; its owner applies it and observers hear it either way.
   */
  emitMade(change: C, owner?: Applier<C>): void;
  /**
   * Throws (DataDirUnwritableError) when a change emitted now could not be kept: for a writer whose
   * change is only known once its work is done (a clock move runs batches on the way), so it can
   * refuse before it starts, like every other write (decision 0163).
   */
  ensureKeepable?(): void;
}

/**
 * A store's one writer of its state (decision 0212): `apply` makes a change in memory, live (called by
 * the stream, after the keeper) and at a restart (called by replay with the changes read back).
 * `asChanges` is its inverse (decision 0274): the state as the changes that make it from empty, a
 * data dir's snapshot. The cut is taken at the call and cheaply, the changes built as they are
 * iterated (decision 0146; `lazily`).
 */
export interface ChangeOwner<C> {
  apply(change: C): void;
  asChanges(): Iterable<C>;
}

/** What the stream calls of a change's owner (the reset's is every store). */
export type Applier<C> = Pick<ChangeOwner<C>, 'apply'>;

/** The changes of `cut` (taken by the caller, at the call), each built as it is iterated. */
export function* lazily<T, C>(cut: Iterable<T>, changes: (item: T) => Iterable<C>): Generator<C> {
  for (const item of cut) yield* changes(item);
}

/** `POST /__admin/reset` (or `Emulator.reset()`): each store's `apply` says what it forgets. */
export interface ResetChange {
  kind: 'reset';
}

export const RESET: ResetChange = { kind: 'reset' };

/** The sink of a store built on its own (unit tests): applies, keeps nothing, tells nobody. */
export const APPLY_ONLY: ChangeSink<never> = {
  emit: (change, owner) => owner?.apply(change),
  emitMade: (change, owner) => owner?.apply(change),
};

import type { z } from 'zod';
import { formatPath, NotFoundError } from '../errors.js';
import { FAULT_KINDS, FaultSchema } from '../model/auth.js';
import { APPLY_ONLY, type ChangeSink, type ResetChange } from '../model/change-sink.js';
import { parseOr, type Refusal } from '../model/refusal.js';
import type { ApiVersion, Variant } from './types.js';

export { FAULT_KINDS, FaultSchema };

export type FaultInput = z.infer<typeof FaultSchema>;

/** An active fault rule as the admin API shows it. */
export interface Fault extends FaultInput {
  id: string;
  /** Calls still to be affected (count mode), or null (fraction mode: until removed). */
  remaining: number | null;
  /** Calls this rule affected so far. */
  matched: number;
}

/** What a FaultStore changed, with the rules after the change (src/change-stream.ts). */
export type FaultChange =
  | { kind: 'fault_added'; fault: Fault; faults: Fault[] }
  | { kind: 'fault_removed'; id: string; faults: Fault[] }
  | { kind: 'faults_cleared'; faults: Fault[] }
  /** A call used a rule: a count went down, or a rule was used up. */
  | { kind: 'fault_used'; faults: Fault[] };

/** How a fault rule its schema refuses is answered. */
export const FAULT_REFUSAL: Refusal = {
  code: 'invalid_fault',
  words: (issue, message) => ({
    message: `Fault field ${formatPath(issue.path)}: ${message}.`,
    details: { path: formatPath(issue.path), accepted: [...FAULT_KINDS] },
  }),
};

/** Fault rules for SDK tests; the API transports ask `take()` on every call. */
export class FaultStore {
  #faults: Fault[] = [];
  #seq = 0;

  constructor(
    private readonly unit: () => number,
    private readonly changes: ChangeSink<FaultChange> = APPLY_ONLY,
  ) {}

  /** Adds a rule; without count or fraction it affects the next call only. */
  add(input: unknown): Fault {
    const f = parseOr(FaultSchema, FAULT_REFUSAL, input);
    const fault: Fault = {
      id: `f-${this.#seq + 1}`,
      ...f,
      remaining: f.fraction !== undefined ? null : (f.count ?? 1),
      matched: 0,
    };
    this.changes.emit(
      { kind: 'fault_added', fault: { ...fault }, faults: copies([...this.#faults, fault]) },
      this,
    );
    return fault;
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  /** Removes one rule; 404 when unknown. */
  remove(id: string): void {
    const next = this.#faults.filter((f) => f.id !== id);
    if (next.length === this.#faults.length)
      throw new NotFoundError('fault_not_found', `No fault "${id}". GET /__admin/faults lists them.`);
    this.changes.emit({ kind: 'fault_removed', id, faults: copies(next) }, this);
  }

  /** Removes every rule (`DELETE /__admin/faults`). */
  clear(): void {
    this.changes.emit({ kind: 'faults_cleared', faults: [] }, this);
  }

  /** The rule that applies to this call, if any (first match wins); consumes one of its count. */
  take(version: ApiVersion, variant: Variant): Fault | undefined {
    if (this.#faults.length === 0) return undefined;
    for (const f of this.#faults) {
      if (f.version !== undefined && f.version !== version) continue;
      if (
        f.variant !== undefined &&
        f.variant !== variant &&
        !(f.variant === 'soap' && variant.startsWith('soap'))
      )
        continue;
      if (f.fraction !== undefined && this.unit() >= f.fraction) continue;
      const used = { ...f, matched: f.matched + 1 };
      if (f.fraction === undefined && used.remaining !== null) used.remaining -= 1;
      const next =
        used.remaining !== null && used.remaining <= 0
          ? this.#faults.filter((x) => x !== f)
          : this.#faults.map((x) => (x === f ? used : x));
      this.changes.emitMade({ kind: 'fault_used', faults: copies(next) }, this);
      return used;
    }
    return undefined;
  }

  /**
   * The one writer of the rules (decision 0212), live and at a restart: each change carries the
   * rules as they are after it; ids go on after the highest seen. Reset forgets the rules.
   */
  apply(change: FaultChange | ResetChange): void {
    switch (change.kind) {
      case 'fault_added':
      case 'fault_removed':
      case 'faults_cleared':
      case 'fault_used':
        this.#faults = copies(change.faults);
        for (const f of change.faults) this.#seq = Math.max(this.#seq, Number(f.id.slice(2)));
        break;
      case 'reset':
        this.#faults = [];
        break;
    }
  }

  /** The rules as the one change that sets them (`ChangeOwner`, decision 0274). */
  asChanges(): FaultChange[] {
    return [{ kind: 'fault_used', faults: this.list() }];
  }
}

function copies(faults: readonly Fault[]): Fault[] {
  return faults.map((f) => ({ ...f }));
}

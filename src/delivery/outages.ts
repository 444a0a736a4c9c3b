import { z } from 'zod';
import { INSTANT_RANGE, InstantInput, instantInRange } from '../clock/bounds.js';
import { parseDurationMs } from '../clock/duration.js';
import { formatPath, InputError, NotFoundError } from '../errors.js';
import { APPLY_ONLY, type ChangeSink, type ResetChange } from '../model/change-sink.js';
import type { OutageShape } from '../model/delivery.js';
import { parseOr, type Refusal } from '../model/refusal.js';

/** Most attempts one count-mode outage may fail: more than any notification can ever make. */
export const MAX_OUTAGE_ATTEMPTS = 1_000_000;

/**
 * `POST /__admin/outages` body: which credential (all when omitted) and either a number of attempts
 * or a window of emulator time. Attempts inside it fail locally as `simulated_outage`; the
 * receiver is never contacted (docs/delivery.md "Outages").
 */
export const OutageInputSchema = z
  .strictObject({
    credentialId: z
      .string()
      .min(1)
      .optional()
      .describe('the credential whose attempts fail; every credential when omitted'),
    attempts: z
      .number()
      .int()
      .min(1)
      .max(MAX_OUTAGE_ATTEMPTS)
      .optional()
      .describe('fail the next N attempts (count mode)'),
    from: InstantInput.optional().describe('window start, emulator time (default: now)'),
    until: InstantInput.optional().describe('window end, emulator time, exclusive'),
    // Read by parseDurationMs in add(): its invalid_duration error names the forms and the range.
    for: z
      .union([z.string(), z.number().nonnegative()])
      .optional()
      .describe('window length instead of until: PT4H, 90m, or milliseconds (at most P366D)'),
    note: z.string().max(200).optional().describe('shown with the outage and in attempt messages'),
  })
  .superRefine((o, ctx) => {
    const window = o.from !== undefined || o.until !== undefined || o.for !== undefined;
    if (o.attempts !== undefined && window)
      ctx.addIssue({
        code: 'custom',
        path: ['attempts'],
        message: 'give either attempts (count mode) or a window (from, until or for), not both',
      });
    if (o.until !== undefined && o.for !== undefined)
      ctx.addIssue({ code: 'custom', path: ['for'], message: 'give either until or for, not both' });
  });

/** How an outage its schema refuses is answered. */
export const OUTAGE_REFUSAL: Refusal = {
  code: 'invalid_outage',
  words: (issue, message) => ({
    message: `Outage field ${formatPath(issue.path)}: ${message}.`,
    details: {
      path: formatPath(issue.path),
      accepted: ['credentialId', 'attempts', 'from', 'until', 'for', 'note'],
    },
  }),
};

/** An outage as the admin API lists it. */
export type Outage = z.output<typeof OutageShape>;

interface OutageRule {
  id: string;
  credentialId: string | null;
  attempts: number | null;
  remaining: number | null;
  fromMs: number | null;
  untilMs: number | null;
  note: string | null;
  createdAt: string;
  failedAttempts: number;
}

export interface OutageStoreDeps {
  /** Emulator time now. */
  now: () => Date;
  /** Whether a credential id exists, so a typo is refused instead of never matching. */
  hasCredential: (id: string) => boolean;
  /** The ids known, for the message naming them. */
  credentialIds: () => string[];
  /** Told of every change (src/change-stream.ts). */
  changes?: ChangeSink<OutageChange>;
}

/** What an OutageStore changed, with the outages after the change (src/change-stream.ts). */
export type OutageChange =
  | { kind: 'outage_added'; outage: Outage; outages: Outage[] }
  | { kind: 'outage_removed'; id: string; outages: Outage[] }
  | { kind: 'outages_cleared'; outages: Outage[] }
  /** An attempt fell inside one: a count went down, `failedAttempts` went up. */
  | { kind: 'outage_used'; outages: Outage[] }
  | { kind: 'outages_of_credential_removed'; credentialId: string; outages: Outage[] };

/**
 * Outages of the user's receiver, simulated by the emulator: the outbox asks `take()` before every
 * attempt, and an attempt inside an outage ends as `simulated_outage` without a connection. It counts
 * toward the five attempts as the real outage it stands for would.
 */
export class OutageStore {
  readonly #changes: ChangeSink<OutageChange>;
  #rules: OutageRule[] = [];
  #seq = 0;

  constructor(private readonly deps: OutageStoreDeps) {
    this.#changes = deps.changes ?? APPLY_ONLY;
  }

  /** Validates and adds an outage; a window without `until` or `for` lasts until deleted. */
  add(input: unknown): Outage {
    const o = parseOr(OutageInputSchema, OUTAGE_REFUSAL, input);
    if (o.credentialId !== undefined && !this.deps.hasCredential(o.credentialId)) {
      const known = this.deps.credentialIds();
      throw new InputError(
        'unknown_credential',
        `Outage field credentialId: no credential "${o.credentialId}" (${known.length > 0 ? `known: ${known.join(', ')}` : 'none configured'}); omit credentialId for an outage of every credential.`,
        { path: 'credentialId' },
      );
    }
    const now = this.deps.now();
    let fromMs: number | null = null;
    let untilMs: number | null = null;
    if (o.attempts === undefined) {
      fromMs = o.from !== undefined ? Date.parse(o.from) : now.getTime();
      if (o.until !== undefined) untilMs = Date.parse(o.until);
      if (o.for !== undefined) untilMs = fromMs + parseDurationMs(o.for, 'for');
      if (untilMs !== null && !instantInRange(untilMs))
        throw new InputError(
          'invalid_outage',
          `Outage field for: the window would end after the latest accepted instant (${INSTANT_RANGE}).`,
          { path: 'for', accepted: [INSTANT_RANGE] },
        );
      if (untilMs !== null && untilMs <= fromMs)
        throw new InputError(
          'invalid_outage',
          `Outage field ${o.for !== undefined ? 'for' : 'until'}: the window must end after it begins (${new Date(fromMs).toISOString()}).`,
          { path: o.for !== undefined ? 'for' : 'until' },
        );
    }
    const rule: OutageRule = {
      id: `o-${this.#seq + 1}`,
      credentialId: o.credentialId ?? null,
      attempts: o.attempts ?? null,
      remaining: o.attempts ?? null,
      fromMs,
      untilMs,
      note: o.note ?? null,
      createdAt: now.toISOString(),
      failedAttempts: 0,
    };
    const view = this.#view(rule, now.getTime());
    this.#changes.emit(
      { kind: 'outage_added', outage: view, outages: this.#views([...this.#rules, rule]) },
      this,
    );
    return view;
  }

  list(): Outage[] {
    const nowMs = this.deps.now().getTime();
    return this.#rules.map((r) => this.#view(r, nowMs));
  }

  get(id: string): Outage {
    const rule = this.#rules.find((r) => r.id === id);
    if (!rule) throw notFound(id);
    return this.#view(rule, this.deps.now().getTime());
  }

  /** Removes one outage; 404 when unknown. */
  remove(id: string): void {
    const next = this.#rules.filter((r) => r.id !== id);
    if (next.length === this.#rules.length) throw notFound(id);
    this.#changes.emit({ kind: 'outage_removed', id, outages: this.#views(next) }, this);
  }

  /** Removes every outage (`DELETE /__admin/outages`). */
  clear(): void {
    this.#changes.emit({ kind: 'outages_cleared', outages: [] }, this);
  }

  /**
   * The outage that fails an attempt of `credentialId` starting at `atMs` (emulator time), if any:
   * the first that matches, in the order they were added. A count-mode outage spends one attempt.
   */
  take(credentialId: string, atMs: number): Outage | undefined {
    if (this.#rules.length === 0) return undefined;
    for (const r of this.#rules) {
      if (r.credentialId !== null && r.credentialId !== credentialId) continue;
      if (r.remaining !== null) {
        if (r.remaining <= 0) continue;
      } else if (atMs < r.fromMs! || (r.untilMs !== null && atMs >= r.untilMs)) continue;
      const used: OutageRule = {
        ...r,
        remaining: r.remaining === null ? null : r.remaining - 1,
        failedAttempts: r.failedAttempts + 1,
      };
      const next = this.#rules.map((x) => (x === r ? used : x));
      this.#changes.emitMade({ kind: 'outage_used', outages: this.#views(next) }, this);
      return this.#view(used, atMs);
    }
    return undefined;
  }

  /** Drops the outages of a deleted credential. */
  removeCredential(credentialId: string): void {
    const next = this.#rules.filter((r) => r.credentialId !== credentialId);
    if (next.length === this.#rules.length) return;
    this.#changes.emitMade(
      { kind: 'outages_of_credential_removed', credentialId, outages: this.#views(next) },
      this,
    );
  }

  /**
   * The one writer of the outages (decision 0212), live and at a restart: each change carries the
   * outages as they are after it; ids go on after the highest seen. Reset forgets them.
   */
  apply(change: OutageChange | ResetChange): void {
    switch (change.kind) {
      case 'outage_added':
      case 'outage_removed':
      case 'outages_cleared':
      case 'outage_used':
      case 'outages_of_credential_removed':
        this.#rules = rulesOf(change.outages);
        for (const o of change.outages) this.#seq = Math.max(this.#seq, Number(o.id.slice(2)));
        break;
      case 'reset':
        this.#rules = [];
        break;
    }
  }

  /** The outages as the one change that sets them (`ChangeOwner`, decision 0274). */
  asChanges(): OutageChange[] {
    return [{ kind: 'outage_used', outages: this.list() }];
  }

  #views(rules: readonly OutageRule[]): Outage[] {
    const nowMs = this.deps.now().getTime();
    return rules.map((r) => this.#view(r, nowMs));
  }

  #view(r: OutageRule, nowMs: number): Outage {
    let status: Outage['status'];
    if (r.remaining !== null) status = r.remaining > 0 ? 'active' : 'ended';
    else if (nowMs < r.fromMs!) status = 'scheduled';
    else status = r.untilMs !== null && nowMs >= r.untilMs ? 'ended' : 'active';
    return {
      id: r.id,
      credentialId: r.credentialId,
      attempts: r.attempts,
      remaining: r.remaining,
      from: r.fromMs === null ? null : new Date(r.fromMs).toISOString(),
      until: r.untilMs === null ? null : new Date(r.untilMs).toISOString(),
      note: r.note,
      createdAt: r.createdAt,
      failedAttempts: r.failedAttempts,
      status,
    };
  }
}

/** The attempt message of an attempt an outage failed: which outage, and that nothing was sent. */
export function outageMessage(o: Outage): string {
  const scope = o.credentialId === null ? 'every credential' : `credential ${o.credentialId}`;
  const extent =
    o.attempts !== null
      ? `${o.attempts} attempt${o.attempts === 1 ? '' : 's'}`
      : `from ${o.from}${o.until === null ? ' until deleted' : ` until ${o.until}`}`;
  const note = o.note ? ` "${o.note}"` : '';
  return `simulated outage ${o.id}${note} (${scope}, ${extent}): the attempt was not sent and the receiver was not contacted; DELETE /__admin/outages/${o.id} ends it`;
}

/** The rules as outages describe them (a change carries the outages' views). */
function rulesOf(outages: readonly Outage[]): OutageRule[] {
  return outages.map((o) => ({
    id: o.id,
    credentialId: o.credentialId,
    attempts: o.attempts,
    remaining: o.remaining,
    fromMs: o.from === null ? null : Date.parse(o.from),
    untilMs: o.until === null ? null : Date.parse(o.until),
    note: o.note,
    createdAt: o.createdAt,
    failedAttempts: o.failedAttempts,
  }));
}

function notFound(id: string): NotFoundError {
  return new NotFoundError('outage_not_found', `No outage "${id}". GET /__admin/outages lists them.`);
}

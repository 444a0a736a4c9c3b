/**
 * Diagnosis by experiment (docs/verify.md "Diagnosis by experiment"): when a valid notification was
 * not acknowledged, the kit sends variations of it, one difference at a time, and names the smallest
 * difference that flips the answer, with what it tried. Headers and framing first (each header name in
 * lower case, the Content-Type with a charset, the JSON without gzip), then the body, reduced toward
 * the smallest body that still fails one field or value at a time (delta debugging: halves of an
 * array, a member left out, a string without its characters outside the Basic Multilingual Plane, its
 * combining marks, its right-to-left letters, its non-ASCII letters, or shortened). A refusal that does
 * not come back when the same bytes are sent again alone is told apart as a connection, a rate or an
 * order: two requests on one kept-open connection, requests in a row and after a pause.
 *
 * Every variation the body reduction sends is a body the contract accepts (checked first), so a flip
 * is never the receiver refusing a body the provider could not send.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { NotificationBodyStrictSchema } from '../contract/index.js';
import { deliveryHeaders } from '../delivery/prepare.js';
import { HttpSender } from '../delivery/sender.js';
import { type Answer, acknowledged, shortAnswer } from './evidence.js';
import { pause } from './stop.js';

/** One variation sent and what came back. */
export interface Trial {
  tried: string;
  answer: string;
  /** The answer was an acknowledgement where the original was refused (or the reverse). */
  flipped: boolean;
}

/** What the experiments found. */
export interface Diagnosis {
  /** What the smallest flipping difference was, e.g. `header-name-case`, `body`, `kept-open-connection`. */
  kind: string;
  /** One sentence naming it, with the flip ("… (with … : HTTP 200)"); undefined when nothing flipped. */
  finding?: string;
  /** The fix for what was found. */
  fix?: string;
  /** Every variation sent, in order (the report shows them). */
  trials: Trial[];
  /** For a body finding: the class of the variation that flipped (a case's guess of the same class stands). */
  variation?: Variation;
}

/** Classes of body variations: what a flip says about the receiver. */
export type Variation =
  | 'non-bmp'
  | 'marks'
  | 'rtl'
  | 'non-ascii'
  | 'length'
  | 'empty-array'
  | 'member'
  | 'elements';

/** A notification the receiver did not acknowledge, as the experiments vary it. */
export interface Subject {
  url: string;
  gz: Buffer;
  filename: string;
  authorization: string;
  /** The receiver's answer to it. */
  baseline: Answer;
  /** A fuller body of the same shape (its empty arrays filled), to show "with one element: 200". */
  reference?: unknown;
}

export interface LabOptions {
  responseTimeoutMs: number;
  caPems: string[];
  /** Wall-clock time (ms since the epoch) after which no variation is sent. */
  deadline: number;
  /** Cancels the variation in flight and sends no other (the run's budget). */
  signal?: AbortSignal;
}

/** Variations one diagnosis sends at most. */
const MAX_TRIALS = 120;
/** How long one variation may take: a stuck receiver must not cost a response timeout each. */
const TRIAL_TIMEOUT_MS = 5_000;
/** The pause that tells a rate limit: longer than a one-second window. */
const PAUSE_MS = 1_500;
/** Requests sent in a row to see a rate limit come back. */
const IN_A_ROW = 6;
const SHOWN_TRIALS = 6;

type Path = Array<string | number>;

/** Runs the experiments on one refused notification; never throws (a failed variation is data). */
export async function diagnose(subject: Subject, options: LabOptions): Promise<Diagnosis> {
  const lab = new Lab(subject, options);
  try {
    return await lab.run();
  } catch (err) {
    return {
      kind: 'none',
      trials: [...lab.trials, { tried: 'the experiments', answer: String(err), flipped: false }],
    };
  } finally {
    lab.close();
  }
}

class Lab {
  readonly trials: Trial[] = [];
  readonly #senders: HttpSender[] = [];
  readonly #subject: Subject;
  readonly #options: LabOptions;
  readonly #json: string;

  constructor(subject: Subject, options: LabOptions) {
    this.#subject = subject;
    this.#options = options;
    this.#json = gunzipSync(subject.gz).toString('utf8');
  }

  close(): void {
    for (const s of this.#senders) s.close();
  }

  #sender(maxSockets = 8, timeoutMs = TRIAL_TIMEOUT_MS): HttpSender {
    const sender = new HttpSender({
      timeoutMs: Math.min(this.#options.responseTimeoutMs, timeoutMs),
      maxSockets,
      extraCaPem: this.#options.caPems,
    });
    this.#senders.push(sender);
    return sender;
  }

  #spent(): boolean {
    return (
      this.trials.length >= MAX_TRIALS ||
      Date.now() >= this.#options.deadline ||
      this.#options.signal?.aborted === true
    );
  }

  /** Sends one variation (headers as given, body as given) and notes it. */
  async #try(
    tried: string,
    headers: Record<string, string>,
    body: Buffer,
    sender = this.#sender(),
    limitMs?: number,
  ): Promise<Answer> {
    const limit = limitMs === undefined ? undefined : AbortSignal.timeout(limitMs);
    const signals = [this.#options.signal, limit].filter((x) => x !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const sent = await sender.send({ url: this.#subject.url, headers, body }, signal);
    // Past its own limit, a variation is unanswered: said so, not as a cancel.
    const answer: Answer =
      limit?.aborted && sent.outcome === 'interrupted'
        ? { ...sent, outcome: 'timeout', message: `gave up after ${limitMs} ms` }
        : sent;
    this.trials.push({
      tried,
      answer: shortAnswer(answer),
      flipped: acknowledged(answer) !== acknowledged(this.#subject.baseline),
    });
    return answer;
  }

  #headers(gz = this.#subject.gz): Record<string, string> {
    return { ...deliveryHeaders(this.#subject.authorization, this.#subject.filename, gz.length) };
  }

  async run(): Promise<Diagnosis> {
    const base = this.#subject.baseline;
    // A refusal that says "later" (429, 503) is asked again later, not at once.
    const later = base.statusCode === 429 || base.statusCode === 503;
    if (later) await pause(PAUSE_MS, this.#options.signal);
    const again = await this.#try(
      `the same bytes again, alone, on a new connection${later ? `, after a pause of ${PAUSE_MS} ms` : ''}`,
      this.#headers(),
      this.#subject.gz,
    );
    if (acknowledged(again)) return this.#transient();
    if (base.outcome !== 'http_status') return { kind: 'none', trials: this.trials };
    const framing = await this.#framing();
    if (framing) return framing;
    const bytes = await this.#exactBytes();
    if (bytes) return bytes;
    return this.#body();
  }

  /**
   * The same JSON with other whitespace: the same content in other bytes. Acknowledged, the receiver
   * judges the bytes, not the content (it remembers the bytes it took: a redelivery is "a conflict"),
   * and any change to the body would flip it, so the body is not reduced (its flips would mislead).
   */
  async #exactBytes(): Promise<Diagnosis | undefined> {
    let respaced: string;
    try {
      respaced = JSON.stringify(JSON.parse(this.#json), null, 1);
    } catch {
      return undefined;
    }
    if (respaced === this.#json) return undefined;
    const gz = gzipSync(respaced);
    const answer = await this.#try(
      'the same JSON with other whitespace (the same content, other bytes)',
      this.#headers(gz),
      gz,
    );
    if (!acknowledged(answer)) return undefined;
    return {
      kind: 'exact-bytes',
      finding: `the receiver judges the bytes, not the content: these exact bytes were answered ${shortAnswer(this.#subject.baseline)}, the same JSON with other whitespace ${shortAnswer(answer)}; it remembers the bytes of a notification it took, so a byte-identical redelivery is refused`,
      fix: 'Answer 200 to a notification it already took, byte for byte (the provider redelivers one whose answer was lost): change nothing and acknowledge it; tell notifications apart by their content (BookingID, UpdateDate, BookingStatus), not their bytes.',
      trials: this.trials,
    };
  }

  /** Refused once, acknowledged alone: a connection, a rate or what came before. */
  async #transient(): Promise<Diagnosis> {
    const base = this.#subject.baseline;
    const headers = this.#headers();
    if (base.outcome !== 'http_status') {
      // Two requests on one kept-open connection (a pool of one socket). The second has five times the
      // first's time (TRIAL_TIMEOUT_MS at least): a receiver that is only slow answers it about as fast.
      const one = this.#sender(1, this.#options.responseTimeoutMs);
      const first = await this.#try(
        'the same bytes on a new connection kept open',
        headers,
        this.#subject.gz,
        one,
        TRIAL_TIMEOUT_MS,
      );
      const second = await this.#try(
        'then again on that same kept-open connection',
        headers,
        this.#subject.gz,
        one,
        Math.max(TRIAL_TIMEOUT_MS, 5 * first.durationMs),
      );
      if (acknowledged(first) && !acknowledged(second))
        return {
          kind: 'kept-open-connection',
          finding: `the receiver does not answer a second request on a kept-open connection: the first request on a new connection was answered ${shortAnswer(first)} (in ${first.durationMs} ms), the next one on the same connection ${second.outcome === 'timeout' ? `got no answer within ${second.durationMs} ms` : shortAnswer(second)}; alone on a new connection the same bytes were answered ${shortAnswer(first)}`,
          fix: 'Answer every request of a kept-open connection: HTTP/1.1 keeps connections open by default and the sender reuses them (keep-alive), so read the next request after each answer, or close the connection after each answer (Connection: close).',
          trials: this.trials,
        };
    }
    if (base.outcome === 'http_status') {
      const row: Answer[] = [];
      for (let i = 0; i < IN_A_ROW && !this.#spent(); i++)
        row.push(
          await this.#try(
            `the same bytes, request ${i + 1} of ${IN_A_ROW} in a row`,
            headers,
            this.#subject.gz,
          ),
        );
      const refusedAt = row.findIndex((a) => !acknowledged(a));
      if (refusedAt >= 0) {
        await pause(PAUSE_MS, this.#options.signal);
        const after = await this.#try(`again after a pause of ${PAUSE_MS} ms`, headers, this.#subject.gz);
        if (acknowledged(after))
          return {
            kind: 'rate-limit',
            finding: `the receiver limits the rate of requests: sent again alone it answered 200, then ${shortAnswer(row[refusedAt])} from request ${refusedAt + 1} of ${IN_A_ROW} sent in a row, and 200 again after a pause of ${PAUSE_MS} ms`,
            fix: 'Do not rate-limit the provider: after an outage every pending notification comes in the same minute-55 batch, at once, and a refused one waits an hour for the next batch; exempt the notification URL from the rate limit, or size the limit for a whole batch.',
            trials: this.trials,
          };
      }
    }
    return {
      kind: 'what-came-before',
      finding: `the refusal did not come back when the same bytes were sent again alone (${this.trials.at(0)?.answer}): it depended on what the receiver had got before (the order of the notifications, its state, or requests at the same time)`,
      trials: this.trials,
    };
  }

  /** One difference of the framing at a time: header name case, Content-Type, gzip. */
  async #framing(): Promise<Diagnosis | undefined> {
    const headers = this.#headers();
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (acknowledged(await this.#try('every header name in lower case', lower, this.#subject.gz))) {
      for (const name of Object.keys(headers)) {
        const one = Object.fromEntries(
          Object.entries(headers).map(([k, v]) => [k === name ? k.toLowerCase() : k, v]),
        );
        const answer = await this.#try(`only "${name}" named "${name.toLowerCase()}"`, one, this.#subject.gz);
        if (acknowledged(answer))
          return {
            kind: 'header-name-case',
            finding: `the receiver reads the header name "${name.toLowerCase()}" case-sensitively: named "${name}", as the provider sends it, it was answered ${shortAnswer(this.#subject.baseline)}; named "${name.toLowerCase()}", with the same value, ${shortAnswer(answer)}`,
            fix: `Look headers up without regard to case (HTTP header names are case-insensitive, RFC 9110 §5.1): the provider sends "${name}"; a lookup in the raw header list for "${name.toLowerCase()}" (or any one spelling) misses it.`,
            trials: this.trials,
          };
      }
      return {
        kind: 'header-name-case',
        finding: `the receiver reads header names case-sensitively: with every header name in lower case it was answered 200, with the names as the provider sends them ${shortAnswer(this.#subject.baseline)}`,
        fix: 'Look headers up without regard to case (HTTP header names are case-insensitive, RFC 9110 §5.1).',
        trials: this.trials,
      };
    }
    const charset = { ...headers, 'Content-Type': 'application/json; charset=utf-8' };
    const typed = await this.#try('Content-Type: application/json; charset=utf-8', charset, this.#subject.gz);
    if (acknowledged(typed))
      return {
        kind: 'content-type',
        finding: `the receiver matches the Content-Type exactly: with "application/json", as the provider sends it, ${shortAnswer(this.#subject.baseline)}; with "application/json; charset=utf-8", ${shortAnswer(typed)}`,
        fix: 'Compare Content-Type by its media type only, ignoring case and parameters: the provider sends exactly "Content-Type: application/json".',
        trials: this.trials,
      };
    const plain = Buffer.from(this.#json, 'utf8');
    const { 'Content-Encoding': _gzip, ...rest } = headers;
    const unpacked = await this.#try(
      'the same JSON without gzip (no Content-Encoding)',
      { ...rest, 'Content-Length': String(plain.length) },
      plain,
    );
    if (acknowledged(unpacked))
      return {
        kind: 'content-encoding',
        finding: `the receiver refuses the gzip encoding: with "Content-Encoding: gzip", as the provider sends every notification, ${shortAnswer(this.#subject.baseline)}; the same JSON without Content-Encoding, ${shortAnswer(unpacked)}${acknowledged(typed) ? '' : '; with another Content-Type, still refused: the encoding, not the Content-Type'}`,
        fix: 'Accept "Content-Encoding: gzip" and gunzip the body before parsing it (a framework option, e.g. inflate in body-parser, or a proxy that passes the header and the compressed body on together): every notification comes gzip-compressed.',
        trials: this.trials,
      };
    return undefined;
  }

  /** Delta debugging of the body: reduce it while it still fails the same way, then name what flips. */
  async #body(): Promise<Diagnosis> {
    let current: unknown;
    try {
      current = JSON.parse(this.#json);
    } catch {
      return { kind: 'none', trials: this.trials };
    }
    const base = this.#subject.baseline;
    const reducing = this.#sender(1);
    const same = (a: Answer) =>
      !acknowledged(a) && a.outcome === base.outcome && a.statusCode === base.statusCode;
    /** Variations that flipped, by key: assumed to flip on a smaller body too (delta debugging). */
    const flips = new Map<string, { candidate: Candidate; answer: Answer }>();
    /** Variations the contract refuses (a required member left out stays refused): never re-checked. */
    const invalid = new Set<string>();
    let reduced = true;
    while (reduced && !this.#spent()) {
      reduced = false;
      for (const candidate of candidates(current)) {
        if (this.#spent()) break;
        if (flips.has(candidate.key) || invalid.has(candidate.schemaKey)) continue;
        const next = candidate.apply(current);
        if (!NotificationBodyStrictSchema.safeParse(next).success) {
          invalid.add(candidate.schemaKey);
          continue;
        }
        const gz = gzipSync(JSON.stringify(next));
        // One kept-alive connection for the reduction: a handshake per variation is the cost otherwise.
        const answer = await this.#try(candidate.what, this.#headers(gz), gz, reducing);
        if (same(answer)) {
          current = next;
          reduced = true;
          break;
        }
        if (acknowledged(answer)) flips.set(candidate.key, { candidate, answer });
      }
    }
    // What still flips on the smallest failing body: its paths are still there, as they were.
    const standing = [...flips.values()].filter(({ candidate }) => candidate.holds(current));
    const leaves = standing.filter(({ candidate }) => candidate.leaf);
    const named = (leaves.length > 0 ? leaves : standing).slice(0, 3);
    if (named.length === 0) {
      return {
        kind: 'none',
        finding: undefined,
        trials: this.trials,
      };
    }
    const parts: string[] = [];
    for (const { candidate, answer } of named) {
      let also = '';
      const filled = candidate.fill?.(current, this.#subject.reference);
      if (filled && NotificationBodyStrictSchema.safeParse(filled).success && !this.#spent()) {
        const gz = gzipSync(JSON.stringify(filled));
        const withOne = await this.#try(`${candidate.label} with one element`, this.#headers(gz), gz);
        also = `; with one element: ${shortAnswer(withOne)}`;
      }
      parts.push(
        `when \`${candidate.label}\` ${describeValue(valueAt(current, candidate.path))} (${candidate.flipText}: ${shortAnswer(answer)}${also})`,
      );
    }
    const first = named[0]!.candidate;
    if (base.statusCode === 413 && (first.variation === 'length' || first.variation === 'elements'))
      // A 413 that a smaller body takes is a request-size limit (the case's fix), not the field's value.
      return {
        kind: 'request-size',
        finding: `the receiver refuses the request by its size: ${this.#subject.gz.length} bytes of gzip were answered ${shortAnswer(base)}; the same body made smaller (\`${first.label}\` ${first.flipText}) ${shortAnswer(named[0]!.answer)}: a request-size limit, not the value of \`${first.label}\``,
        trials: this.trials,
      };
    return {
      kind: 'body',
      variation: first.variation,
      finding: `the receiver answers ${shortAnswer(base)} ${parts.join(', and ')}`,
      fix: `Accept a notification in which \`${first.label}\` ${describeValue(valueAt(current, first.path))}: the contract allows it (the kit checked this body against it before sending), and real bookings carry such values. ${first.fix}`,
      trials: this.trials,
    };
  }
}

/** One way to make a body smaller or simpler at one path. */
interface Candidate {
  key: string;
  /** What the contract's verdict on the variation depends on (a member left out: its place only). */
  schemaKey: string;
  path: Path;
  /** The path as a report prints it, e.g. `Tax[0].TaxDetails`. */
  label: string;
  what: string;
  /** How the flip reads, e.g. "left out", "with "xx"". */
  flipText: string;
  /** A member or string (not an array halved): the finer finding. */
  leaf: boolean;
  /** What to change in the receiver when this variation is the one that flipped. */
  fix: string;
  variation: Variation;
  apply(body: unknown): unknown;
  /** Whether this candidate still means the same on `body` (its path there, the same value). */
  holds(body: unknown): boolean;
  /** For an empty array: the body with it holding the reference's first element. */
  fill?(body: unknown, reference: unknown): unknown;
}

const NON_BMP = /[\u{10000}-\u{10FFFF}]/gu;
const MARKS = /\p{M}/gu;
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/gu;
const NON_ASCII = /[^\x20-\x7E]/gu;
/** A string longer than this is shortened to its first SHORT characters. */
const LONG = 24;
const SHORT = 8;

function label(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function valueAt(body: unknown, path: Path): unknown {
  let v: unknown = body;
  for (const p of path)
    v = v === null || typeof v !== 'object' ? undefined : (v as Record<string | number, unknown>)[p];
  return v;
}

function withValue(
  body: unknown,
  path: Path,
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
): unknown {
  const copy = structuredClone(body);
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  change(parent, path.at(-1)!);
  return copy;
}

/** How a value reads in a finding: the class of its content, not only its text. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value))
    return value.length === 0
      ? 'is an empty array'
      : `has ${value.length} element${value.length === 1 ? '' : 's'}`;
  if (typeof value !== 'string') return `is ${JSON.stringify(value)}`;
  const traits: string[] = [];
  const outside = value.match(NON_BMP);
  if (outside)
    traits.push(
      `a character outside the Basic Multilingual Plane (${[...new Set(outside)].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(', ')}: 4 bytes in UTF-8)`,
    );
  const marks = value.match(MARKS);
  if (marks)
    traits.push(
      `combining marks (${[...new Set(marks)].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(', ')})`,
    );
  // `replace` with RTL (global) below; a global regex's `test` would keep its place between calls.
  if (value.replace(RTL, '') !== value) traits.push('right-to-left letters');
  const length = [...value].length;
  if (length > LONG) traits.push(`${length} characters`);
  const shown = JSON.stringify(length > 60 ? `${[...value].slice(0, 60).join('')}…` : value);
  return `is ${shown}${traits.length ? ` (${traits.join('; ')})` : ''}`;
}

/** The reductions of a body, largest first: halves of arrays, members left out, simpler strings. */
function candidates(body: unknown): Candidate[] {
  const halves: Candidate[] = [];
  const members: Candidate[] = [];
  const strings: Candidate[] = [];
  const walk = (value: unknown, path: Path) => {
    if (Array.isArray(value)) {
      const n = value.length;
      if (n > 1) {
        const cut = Math.ceil(n / 2);
        for (const [from, to] of [
          [0, cut],
          [cut, n],
        ] as const)
          halves.push({
            key: `${label(path)}#${n}:${from}-${to}`,
            schemaKey: `${label(path)}#${n}:${from}-${to}`,
            path,
            label: label(path),
            what: `\`${label(path)}\` with only its elements ${from + 1}–${to} of ${n}`,
            flipText: `with only its elements ${from + 1}–${to}`,
            leaf: false,
            variation: 'elements',
            fix: `Accept \`${label(path)}\` with all its ${n} elements: the contract bounds it, not the receiver's storage or code.`,
            apply: (b) =>
              withValue(b, path, (parent, key) => {
                parent[key] = (parent[key] as unknown[]).slice(from, to);
              }),
            holds: (b) => (valueAt(b, path) as unknown[] | undefined)?.length === n,
          });
      }
      for (const [i, v] of value.entries()) walk(v, [...path, i]);
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const p = [...path, k];
        const before = JSON.stringify(v);
        members.push({
          key: `${label(p)}:out:${before.length}`,
          schemaKey: `${label(p)}:out`,
          path: p,
          label: label(p),
          what: `\`${label(p)}\` left out`,
          flipText: 'left out',
          leaf: true,
          variation: Array.isArray(v) && v.length === 0 ? 'empty-array' : 'member',
          fix:
            Array.isArray(v) && v.length === 0
              ? `Treat \`${label(p)}\` as possibly empty: the contract allows an empty array, so code that takes its first element, or sums it without an initial value (reduce), must handle none.`
              : `Accept \`${label(p)}\` with this value: it is an optional member the contract allows, so store or skip it rather than refuse the notification.`,
          apply: (b) =>
            withValue(b, p, (parent, key) => {
              delete parent[key as string];
            }),
          holds: (b) => JSON.stringify(valueAt(b, p)) === before,
          ...(Array.isArray(v) && v.length === 0
            ? {
                fill: (b: unknown, reference: unknown) => {
                  const element = (valueAt(reference, p) as unknown[] | undefined)?.[0];
                  return element === undefined
                    ? undefined
                    : withValue(b, p, (parent, key) => {
                        parent[key] = [element];
                      });
                },
              }
            : {}),
        });
        walk(v, p);
      }
      return;
    }
    if (typeof value === 'string') {
      const simpler: Array<[string, string, string, Variation]> = [
        [
          'without its characters outside the Basic Multilingual Plane',
          value.replace(NON_BMP, 'x'),
          'Store text as full UTF-8: a character outside the Basic Multilingual Plane (emoji, some CJK) takes 4 bytes, which a 3-byte "utf8" database column (MySQL utf8mb3) refuses; use utf8mb4.',
          'non-bmp',
        ],
        [
          'without its combining marks',
          value.replace(MARKS, ''),
          'Accept combining marks (Unicode category M) in text: Vietnamese and many other names write a letter as a base letter and a mark, which a letters-only pattern (\\p{L}) refuses; allow \\p{M} too, or compare after NFC normalisation.',
          'marks',
        ],
        [
          'without its right-to-left letters',
          value.replace(RTL, 'x'),
          'Accept right-to-left letters (Hebrew, Arabic) in text: store and compare them as UTF-8 like any other letter.',
          'rtl',
        ],
        [
          'in ASCII letters',
          value.normalize('NFD').replace(MARKS, '').replace(NON_ASCII, 'x'),
          'Decode the body as UTF-8 and accept letters outside ASCII (accented Latin, Cyrillic, CJK) in text; do not validate or store text as ASCII or Latin-1.',
          'non-ascii',
        ],
        [
          `shortened to its first ${SHORT} characters`,
          [...value].length > LONG ? [...value].slice(0, SHORT).join('') : value,
          'Store the value at its full length: the contract allows it, so a column or a validation shorter than that refuses real values (long family names, RawData).',
          'length',
        ],
      ];
      for (const [how, text, fix, variation] of simpler) {
        if (text === value || text === '') continue;
        strings.push({
          key: `${label(path)}:${how}:${value}`,
          schemaKey: `${label(path)}:${how}:${value}`,
          path,
          label: label(path),
          what: `\`${label(path)}\` ${how}: ${JSON.stringify(text.slice(0, 40))}`,
          flipText: `${how}, ${JSON.stringify(text.slice(0, 40))}`,
          leaf: true,
          fix,
          variation,
          apply: (b) =>
            withValue(b, path, (parent, key) => {
              parent[key] = text;
            }),
          holds: (b) => valueAt(b, path) === value,
        });
        break;
      }
    }
  };
  walk(body, []);
  return [...halves, ...members, ...strings];
}

/** Trials as a report line: what was tried and what came back, the flips marked. */
export function trialsText(trials: readonly Trial[]): string {
  const flipped = trials.filter((t) => t.flipped);
  const shown = [...flipped.slice(0, SHOWN_TRIALS)];
  const rest = trials.length - shown.length;
  return `${shown.map((t) => `${t.tried} → ${t.answer} (flipped)`).join('; ')}${rest > 0 ? `${shown.length ? '; ' : ''}${rest} other variation${rest === 1 ? '' : 's'} answered as before` : ''}`;
}

/**
 * `verify --replay <report.json> --only <case>` (docs/verify.md "Replaying a case"): sends the
 * notifications a case sent, byte for byte and in the same order, to the receiver again, reads the
 * probe where the case read it, and judges them as the case did: every notification with your key
 * acknowledged (the one `acknowledged` rule), every one with another key refused, every probe reading
 * what the case expected. A team replays the failing sequence against its fixed receiver.
 *
 * Order: each request or probe reading starts no earlier than its offset from the start of the case
 * in the report, and only after everything that had ended before it started in the original run, so
 * requests that overlapped overlap again and a reading follows the answers it followed.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { deliveryHeaders } from '../delivery/prepare.js';
import { HttpSender } from '../delivery/sender.js';
import { formatPath, InputError } from '../errors.js';
import { CASES } from './cases/index.js';
import { malformedAuthorization } from './context.js';
import {
  type Answer,
  acknowledged,
  answerText,
  fixForAnswer,
  OVER_CAP_WARNING,
  overCap,
} from './evidence.js';
import { type JsonPath, JsonScanError, JsonScanner, type ScanChoice, type ScanHandler } from './json-scan.js';
import type { ResolvedOptions } from './options.js';
import { Probe, probeEvidence, recordedText } from './probe.js';
import { meets, tracedAttempt } from './trace.js';
import {
  type CaseTrace,
  CaseTraceSchema,
  type ProbeReading,
  type SentNotification,
  type TracedAttempt,
} from './trace-shape.js';
import { CASE_IDS, type CaseId, type CaseResult, type Evidence, type VerifyReport } from './types.js';

/** A report file larger than this is not one the kit wrote for a case it can replay. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;
const SHOWN = 8;
/**
 * Requests and probe readings one replay sends at most: a case sends far fewer (the largest, a burst
 * of the highest --burst-concurrency, 1,000, with its 4 redeliveries, 5,000); a file that holds more
 * was not written by the kit, and is refused before anything is sent.
 */
export const MAX_REPLAY_STEPS = 10_000;
/**
 * The longest pause a replay keeps between a step and everything before it: the kit's own pauses
 * (a redelivery batch a second after its attempts, a sentinel) are far shorter; a longer recorded
 * one (a crafted `atMs` of a day) is shortened to this, and the report says so.
 */
export const MAX_REPLAY_PAUSE_MS = 10_000;
/** Rounding of the trace's milliseconds: a step ended surely before another only this much earlier. */
const ROUNDING_MS = 1;

/** What `--replay` reads of a report: the run's settings and each case's trace (other members are ignored). */
const ReportFileSchema = z.looseObject({
  receiver: z.string().min(1).max(2_000),
  probe: z.string().min(1).max(2_000).optional(),
  probeDeadlineMs: z.number().int().min(0).max(600_000).optional(),
  responseTimeoutMs: z.number().int().min(1).max(600_000),
  cases: z
    .array(
      z.looseObject({
        id: z.string().max(100),
        status: z.string().max(20),
        reason: z.string().max(100_000),
        // Checked for the chosen case only (CaseTraceSchema), after its size is; the first reading of
        // the file keeps only whether it is there.
        trace: z.unknown().optional(),
      }),
    )
    .max(CASE_IDS.length * 4),
});
/** Cases a report can hold (ReportFileSchema): one more is kept, so that it is refused. */
const MAX_CASES = CASE_IDS.length * 4;
type ReportFile = z.infer<typeof ReportFileSchema>;

/** The case of a report `--replay` sends again, with the run settings it was sent with. */
export interface ReplaySource {
  file: string;
  id: CaseId;
  trace: CaseTrace;
  /** The status and reason the case had in the report. */
  original: { status: string; reason: string };
  receiver: string;
  probe: string | undefined;
  probeDeadlineMs: number | undefined;
  responseTimeoutMs: number;
}

/** Settings a report's top level carries that a replay reads; other members are passed over. */
const SETTINGS = new Set(['receiver', 'probe', 'probeDeadlineMs', 'responseTimeoutMs']);
/** The members of a traced notification other than its body and attempts (others are refused). */
const NOTIFICATION_MEMBERS = new Set([
  'n',
  'bookingId',
  'bookingNumber',
  'bookingStatus',
  'updateDate',
  'filename',
  'credential',
  'authorization',
]);
/** Base64 characters of the largest body a trace carries (trace-shape.ts: 4 MiB of gzip). */
const MAX_BODY_CHARS = Math.ceil((4 * 1024 * 1024) / 3) * 4;
/** The pieces a report is read in. */
const PIECE_BYTES = 256 * 1024;

/** Where a notification's body is in the report file: the bytes of its base64 string. */
interface BodySpan {
  start: number;
  end: number;
  base64: boolean;
}

/** What the first reading of a report keeps of each case: the members that name it, and counts. */
interface CaseIndex {
  members: Record<string, unknown>;
  notifications: number;
  requests: number;
  readings: number;
}

type Holder = Record<string | number, unknown>;

/** `value` put at `path` under `holder`, the containers on the way made before (`open`). */
function setAt(holder: Holder, path: JsonPath, value: unknown): void {
  let at = holder;
  for (const key of path.slice(0, -1)) at = at[key] as Holder;
  at[path.at(-1)!] = value;
}

/** Reads the report in pieces (src/verify/json-scan.ts): memory holds what is kept, never the file. */
async function scanReport(
  file: string,
  handler: ScanHandler,
  refuse: (m: string) => InputError,
): Promise<void> {
  const scanner = new JsonScanner(handler);
  try {
    for await (const piece of createReadStream(file, { highWaterMark: PIECE_BYTES }))
      scanner.write(piece as Buffer);
    scanner.end();
  } catch (err) {
    if (err instanceof JsonScanError)
      throw refuse(`is not JSON (${err.message}); give the file verify --json wrote.`);
    if (err instanceof InputError) throw err;
    throw refuse(
      `cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give the file verify --json wrote.`,
    );
  }
}

/** What the one reading of a report keeps: its settings, each case's names and counts, and one trace. */
interface ReadReport {
  top: Holder;
  cases: CaseIndex[];
  /** The case whose trace was kept: the first named `only` when its trace began; -1 for none. */
  chosen: number;
  /** That trace, each body as where it is in the file; undefined once it held over MAX_REPLAY_STEPS. */
  trace: unknown;
  spans: Map<number, BodySpan>;
}

/**
 * The one reading of a report: its settings; of each case the members that name it (id, status,
 * reason, whether it has a trace) and the size of its trace, counted; and the trace of case `only`
 * (verify --json writes a case's id before its trace), each body kept as its place in the file. A
 * trace that grows over MAX_REPLAY_STEPS is let go as it is read, and only counted from then on.
 */
async function readReport(
  file: string,
  only: string,
  refuse: (m: string) => InputError,
): Promise<ReadReport> {
  const top: Holder = {};
  const cases: CaseIndex[] = [];
  const read: ReadReport = { top, cases, chosen: -1, trace: undefined, spans: new Map() };
  const holder: Holder = {};
  const over = (c: CaseIndex) =>
    c.requests + c.readings > MAX_REPLAY_STEPS || c.notifications > MAX_REPLAY_STEPS;
  // Whether the value at `path` (inside a case's trace) belongs to the trace being kept.
  const keeping = (path: JsonPath) =>
    path[1] === read.chosen && path[2] === 'trace' && !over(cases[read.chosen]!);
  // A member of a trace, just counted: kept when it is the chosen trace's, while it is in bounds.
  const counted = (path: JsonPath): ScanChoice => {
    if (keeping(path)) return 'keep';
    if (path[1] === read.chosen) {
      delete holder.trace; // over the bound: what was kept goes, the rest is only counted
      read.spans.clear();
    }
    return 'skip';
  };
  const notReport = () =>
    refuse('is not a verify report written by verify --json: the top level: expected object.');
  await scanReport(
    file,
    {
      select(path) {
        const [member, i, key, part, , inner] = path;
        if (path.length === 0) return 'descend';
        if (member !== 'cases') return path.length === 1 && SETTINGS.has(member as string) ? 'keep' : 'skip';
        if (path.length === 1) return 'descend';
        if (!Array.isArray(top.cases)) return 'skip';
        if (path.length === 2) return (i as number) <= MAX_CASES ? 'descend' : 'skip';
        const c = cases[i as number];
        if (!c) return 'skip';
        if (path.length === 3) {
          if (key === 'trace') {
            if (read.chosen < 0 && c.members.id === only) read.chosen = i as number;
            return 'descend';
          }
          return key === 'id' || key === 'status' || key === 'reason' ? 'keep' : 'skip';
        }
        if (path.length === 4)
          return part === 'notifications' || part === 'probe' ? 'descend' : counted(path);
        if (part === 'probe') {
          if (path.length === 5) c.readings++;
          return counted(path);
        }
        if (path.length === 5) {
          c.notifications++;
          return 'descend';
        }
        if (path.length === 7) {
          c.requests++;
          return counted(path);
        }
        if (inner === 'attempts') return 'descend';
        if (!keeping(path)) return 'skip';
        if (inner === 'gzipBase64') return 'span';
        if (NOTIFICATION_MEMBERS.has(inner as string)) return 'keep';
        setAt(holder, path.slice(2), null); // unknown: named by the schema's refusal, its value not kept
        return 'skip';
      },
      open(path, kind) {
        const made = kind === 'array' ? [] : {};
        if (path.length === 0) {
          if (kind !== 'object') throw notReport();
        } else if (path.length === 1) top.cases = made;
        else if (path.length === 2) {
          (top.cases as unknown[])[path[1] as number] = made;
          cases[path[1] as number] = { members: made as Holder, notifications: 0, requests: 0, readings: 0 };
        } else {
          if (path.length === 3) cases[path[1] as number]!.members.trace = made;
          if (keeping(path)) setAt(holder, path.slice(2), kind === 'array' ? [] : {});
        }
      },
      value(path, value) {
        if (path.length === 0) throw notReport();
        if (path.length === 1) top[path[0]!] = value;
        else if (path.length === 2) (top.cases as unknown[])[path[1] as number] = value;
        else {
          if (path.length === 3) cases[path[1] as number]!.members[path[2] as string] = value;
          if (keeping(path)) setAt(holder, path.slice(2), value);
        }
      },
      span(path, span) {
        if (!keeping(path)) return;
        setAt(holder, path.slice(2), '');
        read.spans.set(path[4] as number, span);
      },
    },
    refuse,
  );
  read.trace = holder.trace;
  return read;
}

/**
 * Reads and checks a `--json` report and picks the case `only` names; every problem is an InputError.
 * The file is read once, in pieces, and never held whole (readReport): its settings, the size of
 * each case's trace (a trace over MAX_REPLAY_STEPS is refused, and never kept whole), and the chosen
 * case's trace, whose bodies stay in the file until each is sent.
 */
export async function loadReplay(file: string, only: string | undefined): Promise<ReplaySource> {
  const refuse = (message: string) => new InputError('verify_replay_invalid', `--replay ${file}: ${message}`);
  const ids = (only ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length !== 1)
    throw new InputError(
      'verify_replay_invalid',
      `--replay needs --only with exactly one case id (the case to send again), e.g. --only records-final-status; got ${ids.length === 0 ? 'none' : ids.join(', ')}.`,
      { path: 'only' },
    );
  const id = ids[0]!;
  const info = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw refuse(`cannot read it (${err.code ?? err.message}); give the file verify --json wrote.`);
  });
  if (!info.isFile()) throw refuse('is not a file; give the file verify --json wrote.');
  if (info.size > MAX_REPORT_BYTES)
    throw refuse(
      `is ${info.size} bytes, over the ${MAX_REPORT_BYTES / 1024 / 1024} MiB a verify report can be.`,
    );
  const { top, cases, chosen, trace: read, spans } = await readReport(file, ids[0]!, refuse);
  const parsed = ReportFileSchema.safeParse(top);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw refuse(
      `is not a verify report written by verify --json: ${formatPath(issue.path) || 'the top level'}: ${issue.message}.`,
    );
  }
  const report: ReportFile = parsed.data;
  if (!(CASE_IDS as readonly string[]).includes(id))
    throw new InputError(
      'verify_unknown_case',
      `--only: unknown case id "${id}"; accepted: ${CASE_IDS.join(', ')}.`,
      { path: 'only', accepted: CASE_IDS },
    );
  const at = report.cases.findIndex((c) => c.id === id);
  const found = report.cases[at];
  const replayable = report.cases.filter((_, i) => (cases[i]?.requests ?? 0) > 0).map((c) => c.id);
  const others = replayable.length ? `; cases it can replay: ${replayable.join(', ')}` : '';
  if (!found) throw refuse(`holds no case "${id}"${others}.`);
  if (found.trace === undefined)
    throw refuse(
      found.status === 'skipped'
        ? `case "${id}" did not run in that report (skipped: ${found.reason})${others}.`
        : `case "${id}" carries no trace (a report from a version before --replay); run verify --json again${others}.`,
    );
  if (at !== chosen)
    throw refuse(
      `case "${id}" has its trace before its id; verify --json writes the id first: give the file it wrote.`,
    );
  // Counted as it was read, and let go past the bound: a file of 600,000 attempts is refused in the
  // time it takes to read it, and nothing is sent.
  const { requests, readings, notifications } = cases[at]!;
  if (requests + readings > MAX_REPLAY_STEPS || notifications > MAX_REPLAY_STEPS)
    throw refuse(
      `case "${id}" holds ${requests} requests${notifications > MAX_REPLAY_STEPS ? ` of ${notifications} notifications` : ''} and ${readings} probe readings, over the ${MAX_REPLAY_STEPS} a replay sends (a verify case sends at most about 5,000); it was not written by verify --json.`,
    );
  const traced = CaseTraceSchema.safeParse(read);
  if (!traced.success) {
    const issue = traced.error.issues[0]!;
    throw refuse(
      `is not a verify report written by verify --json: ${formatPath(['cases', at, 'trace', ...issue.path])}: ${issue.message}.`,
    );
  }
  const trace = traced.data;
  for (const [j, n] of trace.notifications.entries()) {
    const span = spans.get(j)!;
    const where = formatPath(['cases', at, 'trace', 'notifications', j, 'gzipBase64']);
    if (!span.base64)
      throw refuse(`is not a verify report written by verify --json: ${where}: is not base64.`);
    if (span.end - span.start > MAX_BODY_CHARS)
      throw refuse(
        `is not a verify report written by verify --json: ${where}: over ${MAX_BODY_CHARS} characters.`,
      );
    // Read when it is sent (runReplay), not kept: the bodies are most of a report.
    Object.defineProperty(n, 'gzipBase64', { enumerable: true, get: () => bodyAt(file, span, refuse) });
  }
  if (trace.notifications.length === 0)
    throw refuse(
      `case "${id}" sent no notifications, so there is nothing to send again; run verify --only ${id} instead${others}.`,
    );
  return {
    file,
    id: id as CaseId,
    trace,
    original: { status: found.status, reason: found.reason },
    receiver: report.receiver,
    probe: report.probe,
    probeDeadlineMs: report.probeDeadlineMs,
    responseTimeoutMs: report.responseTimeoutMs,
  };
}

/** A body's base64, read from the report where the first reading found it, and checked again. */
function bodyAt(file: string, span: BodySpan, refuse: (m: string) => InputError): string {
  const bytes = Buffer.alloc(span.end - span.start);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    readSync(fd, bytes, 0, bytes.length, span.start);
  } catch (err) {
    throw refuse(`cannot read it again (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const text = bytes.toString('latin1');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw refuse('changed while it was replayed; replay it again.');
  return text;
}

/** Where a replay sends: flags given now, else the report's receiver and probe. */
export interface ReplayTargets {
  receiver: string | undefined;
  probe: string | undefined;
}

/**
 * Where a replay may send: the report's receiver (or `--url`), never an `/__admin` path (no receiver
 * lives there: a crafted report must not drive an emulator's admin API), and the report's probe only
 * at the host of the report's receiver; `--probe` given now names the probe to read instead.
 */
export function replayTargets(
  source: ReplaySource,
  told: { url?: string | undefined; receiver?: string | undefined; probe?: string | undefined },
): ReplayTargets {
  const refuse = (message: string, path: string) =>
    new InputError('verify_replay_invalid', `--replay ${source.file}: ${message}`, { path });
  const receiver = told.url ?? told.receiver ?? source.receiver;
  const admin = (url: string) => {
    try {
      return new URL(url).pathname.split('/').includes('__admin');
    } catch {
      return false;
    }
  };
  if (admin(receiver))
    throw refuse(
      `would send to ${receiver}, an /__admin path of an emulator, not a receiver; a verify report never names one. Give the receiver's URL with --url.`,
      told.url === undefined ? 'receiver' : 'url',
    );
  if (told.probe !== undefined || source.probe === undefined) return { receiver, probe: told.probe };
  const origin = (url: string) => {
    try {
      return new URL(url.replaceAll(/\{(BookingID|BookingNumber)\}/g, '0')).origin;
    } catch {
      return url;
    }
  };
  if (admin(source.probe) || origin(source.probe) !== origin(source.receiver))
    throw refuse(
      `its probe ${source.probe} is ${admin(source.probe) ? 'an /__admin path' : 'at another host than its receiver'} (${source.receiver}); a replay reads the probe only where the report's receiver is. Give --probe to read it elsewhere.`,
      'probe',
    );
  // Sent elsewhere with --url: the report's probe reads the report's host, not the one replayed to.
  if (told.url !== undefined && origin(told.url) !== origin(source.receiver))
    return { receiver, probe: undefined };
  return { receiver, probe: source.probe };
}

/** One request or probe reading of the replay, with its place in the original timeline. */
interface Step {
  /** When it started in the first run, and when it ended (ms from the start of the case). */
  atMs: number;
  endMs: number;
  /** When it starts in the replay: `atMs` with the pauses over MAX_REPLAY_PAUSE_MS shortened. */
  replayAtMs: number;
  run(): Promise<void>;
}

/**
 * The order of the replay: each step starts at its `replayAtMs` and only after every step that surely
 * ended before it started in the first run. Requests of one redelivery batch start together, at the
 * batch's first: the batch sent them at once, and the times the first run recorded for them spread
 * only by its own connection set-up. Answers the steps in start order and the longest pause cut.
 */
function schedule(steps: Step[]): { ordered: Step[]; longestPauseMs: number } {
  const ordered = [...steps].sort((a, b) => a.atMs - b.atMs);
  let covered = 0;
  let shift = 0;
  let longestPauseMs = 0;
  for (const step of ordered) {
    const pause = step.atMs - covered;
    if (pause > MAX_REPLAY_PAUSE_MS) {
      shift += pause - MAX_REPLAY_PAUSE_MS;
      longestPauseMs = Math.max(longestPauseMs, pause);
    }
    step.replayAtMs = step.atMs - shift;
    covered = Math.max(covered, step.endMs);
  }
  return { ordered, longestPauseMs };
}

/**
 * Runs the steps in order, starting each when its time comes (one pass, one timer at a time), after
 * the steps that ended before it: with the steps sorted by end, those are a prefix, awaited through a
 * chain of prefix barriers (linear in the steps, where awaiting each one's list was quadratic).
 */
async function runSteps(ordered: readonly Step[], t0: number): Promise<void> {
  const byEnd = [...ordered.keys()].sort((a, b) => ordered[a]!.endMs - ordered[b]!.endMs);
  const ends = byEnd.map((i) => ordered[i]!.endMs);
  const finished: Array<Promise<void> | undefined> = [];
  const barriers: Promise<void>[] = [Promise.resolve()];
  const barrier = (k: number): Promise<void> => {
    for (let b = barriers.length; b <= k; b++) {
      const previous = barriers[b - 1]!;
      const step = finished[byEnd[b - 1]!];
      barriers.push(step ? Promise.all([previous, step]).then(() => undefined) : previous);
    }
    return barriers[k]!;
  };
  for (const [i, step] of ordered.entries()) {
    // Steps that surely ended before this one started (both are rounded to the millisecond).
    const k = upperBound(ends, step.atMs - ROUNDING_MS - 1);
    const before = barrier(k);
    const wait = t0 + step.replayAtMs - Date.now();
    if (wait > 0) await sleep(wait);
    finished[i] = before.then(() => step.run());
  }
  await Promise.all(finished);
}

/** How many of the sorted `values` are at most `limit`. */
function upperBound(values: readonly number[], limit: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sends the case again and judges it; never throws for what the receiver does (that is a failed case). */
export async function runReplay(options: ResolvedOptions, source: ReplaySource): Promise<VerifyReport> {
  const started = performance.now();
  const def = CASES.find((c) => c.id === source.id)!;
  const { trace } = source;
  if (trace.notifications.some((n) => n.credential === 'other-credential') && !options.otherApiKey)
    throw new InputError(
      'verify_replay_invalid',
      `--replay: case "${source.id}" sent notifications with the key of another credential; give it again with --other-api-key.`,
      { path: 'otherApiKey' },
    );
  const requests = trace.notifications.reduce((sum, n) => sum + n.attempts.length, 0);
  const sender = new HttpSender({
    timeoutMs: options.responseTimeoutMs,
    maxSockets: Math.min(1_000, Math.max(16, requests)),
    extraCaPem: options.caPems,
  });
  const probe = Probe.of(options);
  const answers = new Map<SentNotification, TracedAttempt[]>();
  const lastAnswer = new Map<SentNotification, Answer>();
  const steps: Step[] = [];
  let t0 = Date.now();
  const batchStart = new Map<string, number>();
  for (const n of trace.notifications)
    for (const a of n.attempts)
      if (a.batchAt) batchStart.set(a.batchAt, Math.min(batchStart.get(a.batchAt) ?? a.atMs, a.atMs));
  for (const n of trace.notifications) {
    answers.set(n, []);
    for (const a of n.attempts) {
      const atMs = a.batchAt ? batchStart.get(a.batchAt)! : a.atMs;
      steps.push({
        atMs,
        endMs: a.atMs + a.durationMs,
        replayAtMs: atMs,
        run: async () => {
          const at = Date.now() - t0;
          // Decoded when sent, not all at once up front.
          const body = Buffer.from(n.gzipBase64, 'base64');
          const headers = deliveryHeaders(authorizationOf(n, options), n.filename, body.length);
          const result = await sender.send({ url: options.receiver, headers, body });
          answers
            .get(n)!
            .push({ ...tracedAttempt(result, at), ...(a.batchAt ? { batchAt: a.batchAt } : {}) });
          lastAnswer.set(n, result);
        },
      });
    }
  }
  const readings = probe ? trace.probe : [];
  for (const p of readings)
    steps.push({
      atMs: p.atMs,
      endMs: p.atMs + (p.waitedMs ?? 0),
      replayAtMs: p.atMs,
      run: () => read(probe!, p),
    });
  const { ordered, longestPauseMs } = schedule(steps);
  t0 = Date.now();
  probe?.beginCase(t0);
  try {
    await runSteps(ordered, t0);
  } finally {
    sender.close();
    await probe?.close();
  }
  const replayed: CaseTrace = {
    // Each body stays a getter reading the file (loadReplay): a copy made with `...` would read them all.
    notifications: trace.notifications.map((n) =>
      Object.defineProperties({} as SentNotification, {
        ...Object.getOwnPropertyDescriptors(n),
        attempts: { value: answers.get(n)!, enumerable: true, writable: true, configurable: true },
      }),
    ),
    probe: probe?.readings() ?? [],
  };
  const note =
    longestPauseMs > 0
      ? ` (a pause of ${longestPauseMs} ms in the trace, longer than the kit ever pauses, was shortened to ${MAX_REPLAY_PAUSE_MS} ms)`
      : '';
  const result = judge(source, replayed, lastAnswer, readings.length === 0 && trace.probe.length > 0, note);
  const durationMs = Math.round(performance.now() - started);
  const caseResult: CaseResult = {
    id: source.id,
    title: def.title,
    ...result,
    rule: def.rule,
    fix: result.fix ?? def.fix,
    durationMs,
    trace: replayed,
  };
  return {
    receiver: options.receiver,
    passed: caseResult.status === 'passed' ? 1 : 0,
    failed: caseResult.status === 'failed' ? 1 : 0,
    warned: caseResult.status === 'warned' ? 1 : 0,
    skipped: 0,
    cases: [caseResult],
    causes: [],
    seed: options.seed,
    ...(options.probe ? { probe: options.probe } : {}),
    probeDeadlineMs: options.probeDeadlineMs,
    responseTimeoutMs: options.responseTimeoutMs,
    durationMs,
  };
}

/** The Authorization a replayed notification carries: the kind it had, with the keys given now. */
function authorizationOf(n: SentNotification, options: ResolvedOptions): string {
  if (n.credential === 'api-key') return `Bearer ${options.apiKey}`;
  if (n.credential === 'no-authorization') return '';
  if (n.credential === 'wrong-key') return n.authorization ?? 'Bearer wrong-key-of-the-replay';
  return malformedAuthorization(n.credential, options);
}

/** Reads the probe as the original reading did: until what it expected, or once. */
async function read(probe: Probe, p: ProbeReading): Promise<void> {
  const b = { bookingId: p.bookingId, bookingNumber: p.bookingNumber };
  const expect = p.expect;
  if (expect === undefined || expect === 'unknown') await probe.get(b, expect);
  else await probe.until(b, (a) => meets(a, expect), expect);
}

/** The verdict: the case's acknowledgement rule per notification, and each probe expectation. */
function judge(
  source: ReplaySource,
  replayed: CaseTrace,
  lastAnswer: ReadonlyMap<SentNotification, Answer>,
  probeLeftOut: boolean,
  /** What the replay changed of the recorded timing, said after the verdict. */
  note: string,
): Pick<CaseResult, 'status' | 'reason' | 'evidence'> & { fix?: string } {
  const wrong: string[] = [];
  const evidence: Evidence[] = [];
  let firstRefusal: Answer | undefined;
  let capped = 0;
  for (const n of source.trace.notifications) {
    const answer = lastAnswer.get(n);
    const what = `#${n.n} ${n.bookingStatus} BookingID ${n.bookingId} (UpdateDate ${n.updateDate}${n.credential === 'api-key' ? '' : `, ${n.credential}`})`;
    const sent: Evidence = {
      sent: `POST ${n.filename}: ${what}, ${n.attempts.length === 1 ? 'once' : `${n.attempts.length} times`}`,
      received: answerText(answer),
    };
    if (n.credential === 'api-key') {
      if (overCap(answer)) capped++;
      if (acknowledged(answer)) continue;
      firstRefusal ??= answer;
      wrong.push(`${what}: not acknowledged (${answerText(answer)})`);
    } else {
      const s = answer?.outcome === 'http_status' ? (answer.statusCode ?? 0) : 0;
      if (s < 200 || s >= 300) continue;
      wrong.push(`${what}: answered ${s}, but a notification without your key must be refused`);
    }
    evidence.push(sent);
  }
  for (const reading of replayed.probe) {
    if (!reading.expect || meets(reading, reading.expect)) continue;
    const answer = reading;
    wrong.push(
      `probe of BookingID ${reading.bookingId}: expected ${reading.expect === 'unknown' ? '404 (unknown)' : reading.expect}, it says ${recordedText(answer)}${(reading.asks ?? 1) > 1 ? ` (still after ${reading.waitedMs} ms)` : ''}`,
    );
    evidence.push(probeEvidence(answer, `expected ${reading.expect}`));
  }
  const requests = source.trace.notifications.reduce((sum, n) => sum + n.attempts.length, 0);
  const sentText = `replayed ${source.trace.notifications.length} notifications (${requests} requests) and ${replayed.probe.length} probe readings of ${source.id} from ${source.file}`;
  const left = `${
    probeLeftOut
      ? ` (${source.trace.probe.length} probe readings left out: give --probe, or replay a report whose run had one)`
      : ''
  }${note}`;
  const was = ` (in the report: ${source.original.status})`;
  if (wrong.length > 0) {
    const fix = firstRefusal ? fixForAnswer(firstRefusal) : undefined;
    return {
      status: 'failed',
      reason: `${sentText}${was}: ${wrong.slice(0, SHOWN).join('; ')}${wrong.length > SHOWN ? `; and ${wrong.length - SHOWN} more` : ''}${left}`,
      evidence: evidence.slice(0, SHOWN * 2),
      ...(fix ? { fix } : {}),
    };
  }
  if (capped > 0)
    return { status: 'warned', reason: `${sentText}${was}: ${OVER_CAP_WARNING}${left}`, evidence };
  return {
    status: 'passed',
    reason: `${sentText}${was}: every notification with your key was acknowledged, every other one refused, and every probe reading was right${left}`,
    evidence,
  };
}

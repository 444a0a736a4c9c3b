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
import { readFile, stat } from 'node:fs/promises';
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
        trace: CaseTraceSchema.optional(),
      }),
    )
    .max(CASE_IDS.length * 4),
});
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

/** Reads and checks a `--json` report and picks the case `only` names; every problem is an InputError. */
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
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw refuse(`is not JSON (${(err as Error).message}); give the file verify --json wrote.`);
  }
  const parsed = ReportFileSchema.safeParse(json);
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
  const found = report.cases.find((c) => c.id === id);
  const replayable = report.cases.filter((c) => c.trace && c.trace.notifications.length > 0).map((c) => c.id);
  const others = replayable.length ? `; cases it can replay: ${replayable.join(', ')}` : '';
  if (!found) throw refuse(`holds no case "${id}"${others}.`);
  if (!found.trace)
    throw refuse(
      found.status === 'skipped'
        ? `case "${id}" did not run in that report (skipped: ${found.reason})${others}.`
        : `case "${id}" carries no trace (a report from a version before --replay); run verify --json again${others}.`,
    );
  if (found.trace.notifications.length === 0)
    throw refuse(
      `case "${id}" sent no notifications, so there is nothing to send again; run verify --only ${id} instead${others}.`,
    );
  return {
    file,
    id: id as CaseId,
    trace: found.trace,
    original: { status: found.status, reason: found.reason },
    receiver: report.receiver,
    probe: report.probe,
    probeDeadlineMs: report.probeDeadlineMs,
    responseTimeoutMs: report.responseTimeoutMs,
  };
}

/** One request or probe reading of the replay, with its place in the original timeline. */
interface Step {
  atMs: number;
  endMs: number;
  run(): Promise<void>;
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
  const t0 = Date.now();
  probe?.beginCase(t0);
  const answers = new Map<SentNotification, TracedAttempt[]>();
  const lastAnswer = new Map<SentNotification, Answer>();
  const steps: Step[] = [];
  for (const n of trace.notifications) {
    const body = Buffer.from(n.gzipBase64, 'base64');
    const headers = deliveryHeaders(authorizationOf(n, options), n.filename, body.length);
    answers.set(n, []);
    for (const a of n.attempts)
      steps.push({
        atMs: a.atMs,
        endMs: a.atMs + a.durationMs,
        run: async () => {
          const at = Date.now() - t0;
          const result = await sender.send({ url: options.receiver, headers, body });
          answers
            .get(n)!
            .push({ ...tracedAttempt(result, at), ...(a.batchAt ? { batchAt: a.batchAt } : {}) });
          lastAnswer.set(n, result);
        },
      });
  }
  const readings = probe ? trace.probe : [];
  for (const p of readings)
    steps.push({ atMs: p.atMs, endMs: p.atMs + (p.waitedMs ?? 0), run: () => read(probe!, p) });
  steps.sort((a, b) => a.atMs - b.atMs);
  const done: Promise<void>[] = [];
  try {
    for (const [i, step] of steps.entries()) {
      const before = done.filter((_, j) => steps[j]!.endMs <= step.atMs && j < i);
      done.push(
        (async () => {
          await Promise.all(before);
          const wait = t0 + step.atMs - Date.now();
          if (wait > 0) await sleep(wait);
          await step.run();
        })(),
      );
    }
    await Promise.all(done);
  } finally {
    sender.close();
    await probe?.close();
  }
  const replayed: CaseTrace = {
    notifications: trace.notifications.map((n) => ({ ...n, attempts: answers.get(n)! })),
    probe: probe?.readings() ?? [],
  };
  const result = judge(source, replayed, lastAnswer, readings.length === 0 && trace.probe.length > 0);
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
  const left = probeLeftOut
    ? ` (${source.trace.probe.length} probe readings left out: give --probe, or replay a report whose run had one)`
    : '';
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

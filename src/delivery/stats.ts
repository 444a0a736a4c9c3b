/**
 * Delivery figures per credential (`GET /__admin/delivery-stats`, the inspector's figures panel and
 * its charts): counted from the notifications the outbox keeps, so they always agree with its list.
 * The figures over time are buckets of wall time (decision 0105): at most TIMELINE_BUCKETS, one
 * window shared by every credential.
 */
import { acknowledges } from '../model/acknowledgement.js';
import type { NotificationRecord, NotificationState } from './notification.js';
import type { AttemptOutcome } from './outcome.js';
import { Slices } from './slices.js';

/** The last failed attempt of a credential's notifications. */
export interface LastFailure {
  notificationId: string;
  attempt: number;
  at: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  message: string;
}

/** One credential's figures. */
export interface DeliveryStats extends Record<NotificationState, number> {
  credentialId: string;
  /** false for a credential deleted since its notifications were made. */
  configured: boolean;
  notifications: number;
  attempts: number;
  /** Attempts answered exactly 200. */
  successfulAttempts: number;
  /** successfulAttempts / attempts; null without attempts. */
  successRate: number | null;
  lastFailure: LastFailure | null;
  /** The next redelivery batch, when one of its notifications is pending. */
  nextBatchAt: string | null;
  /** The same attempts in buckets of wall time, one entry per bucket of the shared window. */
  timeline: TimelineBucket[];
}

/** A credential's attempts that started within one bucket of wall time. */
export interface TimelineBucket {
  /** The bucket's start (wall time, ISO 8601); it lasts `TimelineWindow.bucketMs`. */
  from: string;
  attempts: number;
  /** Attempts answered exactly 200. */
  successful: number;
  /** Attempts that got an HTTP answer (any status): the ones the latency figures describe. */
  answered: number;
  /** Mean and longest time to the answer of the answered attempts, in ms; null when none was answered. */
  meanMs: number | null;
  maxMs: number | null;
}

/** The buckets every credential's timeline uses: `count` buckets of `bucketMs` from `from`. */
export interface TimelineWindow {
  from: string | null;
  bucketMs: number;
  count: number;
}

/** How long the counting runs before it gives the event loop back (decision 0209). */
const STATS_SLICE_MS = 10;

/** The most buckets a timeline has: a chart stays readable and the answer small. */
export const TIMELINE_BUCKETS = 24;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Bucket widths a reader can count in, smallest first; past the last, whole days. */
const WIDTHS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
];

/**
 * The window from the bucket holding `firstMs` to the one holding `nowMs` (wall time, ms): the
 * narrowest width of WIDTHS (else whole days) that keeps it within TIMELINE_BUCKETS buckets, each
 * bucket starting at a multiple of its width. Without attempts (`firstMs` null) there is none.
 */
export function timelineWindow(firstMs: number | null, nowMs: number): TimelineWindow {
  if (firstMs === null) return { from: null, bucketMs: SECOND, count: 0 };
  const last = Math.max(firstMs, nowMs);
  const fits = (width: number) => Math.floor(last / width) - Math.floor(firstMs / width) < TIMELINE_BUCKETS;
  const bucketMs = WIDTHS.find(fits) ?? Math.ceil((last - firstMs + 1) / (TIMELINE_BUCKETS - 1) / DAY) * DAY;
  const start = Math.floor(firstMs / bucketMs) * bucketMs;
  return {
    from: new Date(start).toISOString(),
    bucketMs,
    count: Math.floor(last / bucketMs) - Math.floor(start / bucketMs) + 1,
  };
}

/**
 * The figures of every configured credential (in routing order, even without notifications) and of
 * every deleted one that still has notifications, from `records`; `nextBatchAt` is the clock's next
 * batch; `nowMs` (wall time) ends the timelines' window, which starts at the earliest attempt kept.
 * It counts in slices of `sliceMs` that give the event loop back (100,000 notifications held it
 * 100–300 ms in one go on a busy machine).
 */
export async function deliveryStats(
  configuredIds: readonly string[],
  records: readonly Counted[],
  nextBatchAt: string | null,
  nowMs: number,
  sliceMs = STATS_SLICE_MS,
): Promise<{ window: TimelineWindow; credentials: DeliveryStats[] }> {
  const slices = new Slices(sliceMs);
  // A notification's attempts are in the order they started: its first one is its earliest.
  let firstMs: number | null = null;
  for (const n of records) {
    if (slices.over()) await slices.turn();
    const first = n.attempts[0];
    const ms = first ? Date.parse(first.startedAtWall) : Number.NaN;
    if (!Number.isNaN(ms) && (firstMs === null || ms < firstMs)) firstMs = ms;
  }
  const window = timelineWindow(firstMs, nowMs);
  const byId = new Map<string, Counting>();
  const counting = (id: string, configured: boolean) => {
    const c: Counting = { stats: empty(id, configured), buckets: emptyBuckets(window), durations: [] };
    c.durations = c.buckets.map(() => 0);
    byId.set(id, c);
    return c;
  };
  for (const id of configuredIds) counting(id, true);
  const start = window.from === null ? 0 : Date.parse(window.from);
  const at = { start, bucketMs: window.bucketMs };
  for (const n of records) {
    if (slices.over()) await slices.turn();
    count(byId.get(n.credentialId) ?? counting(n.credentialId, false), n, at);
  }
  return {
    window,
    credentials: [...byId.values()].map(({ stats: s, buckets, durations }) => ({
      ...s,
      successRate: s.attempts === 0 ? null : s.successfulAttempts / s.attempts,
      nextBatchAt: s.pending > 0 ? nextBatchAt : null,
      timeline: buckets.map((b, i) => ({
        ...b,
        meanMs: b.answered === 0 ? null : Math.round((durations[i] ?? 0) / b.answered),
      })),
    })),
  };
}

/** What the figures read of a notification. */
export type Counted = Pick<NotificationRecord, 'id' | 'credentialId' | 'state' | 'attempts'>;

/** A credential's figures while they are counted, with the sum of the answered attempts' durations per bucket. */
interface Counting {
  stats: DeliveryStats;
  buckets: TimelineBucket[];
  durations: number[];
}

function emptyBuckets(window: TimelineWindow): TimelineBucket[] {
  const start = window.from === null ? 0 : Date.parse(window.from);
  return Array.from({ length: window.count }, (_, i) => ({
    from: new Date(start + i * window.bucketMs).toISOString(),
    attempts: 0,
    successful: 0,
    answered: 0,
    meanMs: null,
    maxMs: null,
  }));
}

function empty(credentialId: string, configured: boolean): DeliveryStats {
  return {
    credentialId,
    configured,
    notifications: 0,
    delivered: 0,
    pending: 0,
    exhausted: 0,
    cancelled: 0,
    attempts: 0,
    successfulAttempts: 0,
    successRate: null,
    lastFailure: null,
    nextBatchAt: null,
    timeline: [],
  };
}

function count(
  { stats: s, buckets, durations }: Counting,
  n: Counted,
  window: { start: number; bucketMs: number },
): void {
  s.notifications++;
  s[n.state]++;
  for (const a of n.attempts) {
    s.attempts++;
    const ok = acknowledges(a);
    const i = Math.floor((Date.parse(a.startedAtWall) - window.start) / window.bucketMs);
    const b = buckets[i];
    if (b) {
      b.attempts++;
      if (ok) b.successful++;
      if (a.outcome === 'http_status') {
        b.answered++;
        durations[i] = (durations[i] ?? 0) + a.durationMs;
        b.maxMs = Math.max(b.maxMs ?? 0, a.durationMs);
      }
    }
    if (ok) s.successfulAttempts++;
    else if (!s.lastFailure || a.finishedAt >= s.lastFailure.at) {
      s.lastFailure = {
        notificationId: n.id,
        attempt: a.number,
        at: a.finishedAt,
        outcome: a.outcome,
        statusCode: a.statusCode ?? null,
        message: a.message,
      };
    }
  }
}

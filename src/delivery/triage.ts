/**
 * Failures grouped by cause (decision 0202), as Hookdeck groups failed deliveries into issues: each
 * failing notification (`failing` in resend.ts: exhausted, or pending after a failed attempt, and not
 * covered by a resend) goes to the group of its credential and the cause of its last attempt: the
 * HTTP status with the receiver's answer normalised (digits and long hex runs masked, whitespace
 * collapsed, cut to 80 characters), or the failure's outcome (timeout, tls_error, connect_refused, …).
 */
import type { Attempt, NotificationRecord } from './notification.js';
import type { Outbox } from './outbox.js';
import type { AttemptOutcome } from './outcome.js';
import { failing } from './resend.js';
import { Slices } from './slices.js';

/** Ids listed per group; `count` says how many it has. */
export const TRIAGE_IDS_PER_GROUP = 100;
/** The event loop is given back after this much work. */
const SLICE_MS = 10;

export interface TriageCause {
  /** `HTTP 503 {"error":"busy","retryIn":#}`, `timeout`, `connect_refused`, … */
  key: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** The receiver's answer, normalised; null without one. */
  answer: string | null;
}

export interface TriageGroup {
  /** `<credentialId>|<cause key>`: what `POST /__admin/triage/retry` takes. */
  key: string;
  credentialId: string;
  cause: TriageCause;
  count: number;
  exhausted: number;
  pending: number;
  /** Emulator time the oldest and the newest of the group's last attempts ended. */
  firstSeen: string;
  lastSeen: string;
  /** The newest notification of the group. */
  sample: string;
  /** Its notifications, oldest first, at most TRIAGE_IDS_PER_GROUP. */
  ids: string[];
}

/** The receiver's answer as a group names it: whitespace collapsed, numbers and ids masked, cut. */
export function normaliseAnswer(body: string | undefined): string | null {
  if (!body) return null;
  const text = body
    .replace(/\s+/g, ' ')
    .replace(/\b[0-9a-f]{8,}(?:-[0-9a-f]{4,})*\b/gi, '…')
    .replace(/\d+/g, '#')
    .trim();
  if (!text) return null;
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}

/** The cause of a failed attempt. */
export function causeOf(a: Attempt): TriageCause {
  if (a.outcome === 'http_status' && a.statusCode !== undefined) {
    const answer = normaliseAnswer(a.responseBody);
    return {
      key: `HTTP ${a.statusCode}${answer ? ` ${answer}` : ''}`,
      outcome: a.outcome,
      statusCode: a.statusCode,
      answer,
    };
  }
  return { key: a.outcome, outcome: a.outcome, statusCode: null, answer: null };
}

/**
 * Every failing notification (or those of `onlyKey`'s group), grouped; the groups with the most
 * first. Scans in slices that give the event loop back.
 */
export async function triage(
  outbox: Outbox,
  onlyKey?: string,
): Promise<{ groups: TriageGroup[]; failing: number; members: NotificationRecord[] }> {
  const groups = new Map<string, TriageGroup>();
  const members: NotificationRecord[] = [];
  let total = 0;
  const slices = new Slices(SLICE_MS);
  for (const n of outbox.list()) {
    if (slices.over()) await slices.turn();
    const last = n.attempts.at(-1);
    if (!last || !failing(outbox, n)) continue;
    const cause = causeOf(last);
    const key = `${n.credentialId}|${cause.key}`;
    if (onlyKey !== undefined && key !== onlyKey) continue;
    total++;
    members.push(n);
    let g = groups.get(key);
    if (!g) {
      g = {
        key,
        credentialId: n.credentialId,
        cause,
        count: 0,
        exhausted: 0,
        pending: 0,
        firstSeen: last.finishedAt,
        lastSeen: last.finishedAt,
        sample: n.id,
        ids: [],
      };
      groups.set(key, g);
    }
    g.count++;
    if (n.state === 'exhausted') g.exhausted++;
    else g.pending++;
    if (last.finishedAt < g.firstSeen) g.firstSeen = last.finishedAt;
    if (last.finishedAt >= g.lastSeen) {
      g.lastSeen = last.finishedAt;
      g.sample = n.id;
    }
    if (g.ids.length < TRIAGE_IDS_PER_GROUP) g.ids.push(n.id);
  }
  const sorted = [...groups.values()].sort((a, b) => b.count - a.count || (a.lastSeen < b.lastSeen ? 1 : -1));
  return { groups: sorted, failing: total, members };
}

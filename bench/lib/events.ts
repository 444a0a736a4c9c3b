/** Drives the emulator's admin API for delivery benchmarks: many Issue events, with bounded concurrency. */
import http from 'node:http';
import { json } from './http.js';

interface EventAnswer {
  notifications: Array<{ id: string }>;
  routedTo: number;
}

/** A keep-alive agent for admin calls (one per run; destroy it after). */
export function adminAgent(maxSockets = 16): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets });
}

/**
 * POSTs `count` Issue events to `${url}/__admin/events`, `concurrency` at a time; answers the
 * notification ids and the wall time the run took. Throws when an event routes to no credential.
 */
export async function postIssueEvents(
  url: string,
  count: number,
  concurrency: number,
  onProgress?: (done: number) => void,
): Promise<{ ids: string[]; elapsedMs: number; refused: string[] }> {
  const agent = adminAgent(concurrency);
  const ids: string[] = [];
  // Events the emulator refused because its own generator made an invalid body: retried (the next
  // one is generated from the next seed) and reported, so a generator bug shows up in the figures
  // without stopping a long run.
  const refused: string[] = [];
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (next < count) {
          next++;
          let answer: EventAnswer;
          try {
            answer = await json<EventAnswer>(`${url}/__admin/events`, {
              body: { type: 'Issue' },
              agent,
              timeoutMs: 60_000,
            });
          } catch (err) {
            const message = (err as Error).message;
            if (!message.includes('body_invalid') || refused.length >= 100) throw err;
            refused.push(message.replace(/^.*?HTTP 400: /, '').slice(0, 400));
            next--;
            continue;
          }
          if (!answer.routedTo) throw new Error('an Issue event was routed to 0 credentials');
          for (const n of answer.notifications) ids.push(n.id);
          if (onProgress && ids.length % 10_000 === 0) onProgress(ids.length);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { ids, elapsedMs: performance.now() - started, refused };
}

/** Waits (server-side, `wait=settled`) until no notification has an attempt queued or running. */
export async function waitSettled(url: string, timeoutMs = 300_000): Promise<boolean> {
  // state=exhausted lists (almost) nothing, but the wait covers every notification.
  const answer = await json<{ settled: boolean }>(
    `${url}/__admin/notifications?wait=settled&state=exhausted&timeoutMs=${timeoutMs}`,
    { timeoutMs: timeoutMs + 10_000 },
  );
  return answer.settled;
}

/**
 * Runs `call` every `everyMs` on a keep-alive agent of its own until stopped (the first at once when
 * `now`); answers each call's latency in ms. A failed call is not counted: a probe left running when
 * the suite failed meets a stopped emulator, and the suite's own error is the one to report.
 */
export function probeLatency(
  call: (agent: http.Agent) => Promise<unknown>,
  everyMs: number,
  now = false,
): { stop: () => Promise<number[]> } {
  const agent = adminAgent(4);
  const latencies: number[] = [];
  const running: Array<Promise<void>> = [];
  const probe = () => {
    const t0 = performance.now();
    running.push(
      call(agent).then(
        () => {
          latencies.push(performance.now() - t0);
        },
        () => {},
      ),
    );
  };
  if (now) probe();
  const timer = setInterval(probe, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(running);
      agent.destroy();
      return latencies;
    },
  };
}

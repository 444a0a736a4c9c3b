import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { NotificationRecord } from '../delivery/index.js';
import { Slices } from '../delivery/slices.js';
import { HAR_TAIL, type HarBody, harBody, harEntry, harHead, ndjsonLine } from './har.js';

/**
 * How long one slice of an export may hold the event loop before it lets health, deliveries and
 * events in (decision 0209: never more than ~50 ms; a slice is one chunk of the answer).
 */
export const EXPORT_SLICE_MS = 4;
/** Characters a chunk gathers before it is handed to the socket, whatever time is left of the slice. */
const CHUNK_CHARS = 64 * 1024;
/** Entries whose order is sorted in one go before the runs are merged as the HAR is written. */
const SORT_RUN = 4096;
/** Bodies of recent notifications kept decoded: a notification's attempts often follow each other. */
const BODY_CACHE = 256;

/** What an export writes: its first text, the next piece on demand (undefined at the end), its last text. */
interface Pieces {
  head: string;
  next: () => string | undefined;
  tail: string;
}

/**
 * A response body written in slices of at most EXPORT_SLICE_MS, each on a turn of its own, only as
 * fast as the client reads (a slice is made when the stream is pulled, which the server does once
 * the socket drained), and not at all once the client went (`cancel`). `prepare` runs first, in
 * slices of its own (it yields); memory is the pieces of one chunk, not the whole answer.
 */
export function slicedBody(
  prepare: (stopped: () => boolean) => Promise<Pieces>,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cancelled = false;
  const stopped = () => cancelled || signal?.aborted === true;
  let pieces: Pieces | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pieces === undefined) {
          pieces = await prepare(stopped);
          if (stopped()) return;
          controller.enqueue(encoder.encode(pieces.head));
          return;
        }
        await yieldToEventLoop();
        if (stopped()) return;
        const start = performance.now();
        let chunk = '';
        while (chunk.length < CHUNK_CHARS && performance.now() - start < EXPORT_SLICE_MS) {
          const piece = pieces.next();
          if (piece === undefined) {
            controller.enqueue(encoder.encode(chunk + pieces.tail));
            controller.close();
            return;
          }
          chunk += piece;
        }
        controller.enqueue(encoder.encode(chunk));
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
}

/** Runs `step(i)` for i in [0, count) in slices of EXPORT_SLICE_MS, yielding between them; false once stopped. */
async function inSlices(count: number, step: (i: number) => void, stopped: () => boolean): Promise<boolean> {
  const slices = new Slices(EXPORT_SLICE_MS);
  for (let i = 0; i < count; i++) {
    // The clock is read every 256 steps: a step is microseconds.
    if ((i & 255) === 0 && slices.over()) {
      await slices.turn();
      if (stopped()) return false;
    }
    step(i);
  }
  return true;
}

/** The NDJSON export: one line per notification with the notifications that resend it (`resentAs`). */
export function ndjsonPieces(
  records: readonly NotificationRecord[],
  resentAs: (id: string) => readonly NotificationRecord[],
): Pieces {
  let i = 0;
  return {
    head: '',
    next: () => {
      const n = records[i++];
      return n === undefined
        ? undefined
        : ndjsonLine(
            n,
            resentAs(n.id).map((r) => r.id),
          );
    },
    tail: '',
  };
}

/**
 * The HAR export: every attempt of `records` as an entry, in the order the attempts started (ties
 * keep notification order). The order is sorted in runs of SORT_RUN between yields, and the runs are
 * merged as the entries are written (a heap of their heads): O(E log E) with no step longer than a run.
 */
export async function harPieces(
  records: readonly NotificationRecord[],
  stopped: () => boolean,
): Promise<Pieces> {
  let count = 0;
  for (const n of records) count += n.attempts.length;
  const times = new Float64Array(count);
  const owner = new Uint32Array(count);
  const attempt = new Uint8Array(count);
  let e = 0;
  const listed = await inSlices(
    records.length,
    (r) => {
      const { attempts } = records[r]!;
      for (let a = 0; a < attempts.length; a++, e++) {
        times[e] = Date.parse(attempts[a]!.startedAtWall);
        owner[e] = r;
        attempt[e] = a;
      }
    },
    stopped,
  );
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const before = (x: number, y: number) => times[x]! - times[y]! || x - y;
  const runs = Math.ceil(count / SORT_RUN);
  if (listed)
    await inSlices(runs, (r) => order.subarray(r * SORT_RUN, (r + 1) * SORT_RUN).sort(before), stopped);
  const merge = runMerge(order, runs, before);
  const bodies = new Map<number, HarBody>();
  const bodyOf = (r: number): HarBody => {
    let body = bodies.get(r);
    if (body === undefined) {
      if (bodies.size >= BODY_CACHE) bodies.clear();
      body = harBody(records[r]!);
      bodies.set(r, body);
    }
    return body;
  };
  let first = true;
  return {
    head: harHead(),
    next: () => {
      const at = merge();
      if (at === undefined) return undefined;
      const n = records[owner[at]!]!;
      const line = JSON.stringify(harEntry(n, n.attempts[attempt[at]!]!, bodyOf(owner[at]!)));
      const piece = first ? line : `,\n${line}`;
      first = false;
      return piece;
    },
    tail: HAR_TAIL,
  };
}

/**
 * The next entry of `order`'s sorted runs of SORT_RUN, merged by a binary heap of each run's head
 * (`before` orders two entries); undefined once every run is spent.
 */
function runMerge(
  order: Uint32Array,
  runs: number,
  before: (x: number, y: number) => number,
): () => number | undefined {
  const position = new Uint32Array(runs);
  const end = (r: number) => Math.min((r + 1) * SORT_RUN, order.length);
  for (let r = 0; r < runs; r++) position[r] = r * SORT_RUN;
  const heap: number[] = [];
  const head = (r: number) => order[position[r]!]!;
  const less = (i: number, j: number) => before(head(heap[i]!), head(heap[j]!)) < 0;
  const swap = (i: number, j: number) => {
    const t = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = t;
  };
  const down = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const m = l + 1 < heap.length && less(l + 1, l) ? l + 1 : l;
      if (l >= heap.length || !less(m, i)) return;
      swap(i, m);
      i = m;
    }
  };
  for (let r = 0; r < runs; r++) heap.push(r);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  return () => {
    const r = heap[0];
    if (r === undefined) return undefined;
    const at = head(r);
    position[r] = position[r]! + 1;
    if (position[r]! >= end(r)) {
      heap[0] = heap.at(-1)!;
      heap.pop();
    }
    if (heap.length > 0) down(0);
    return at;
  };
}

import { WAIT_DEADLINE_MS, waitExpired } from './deadline.js';

/** One event of the live stream: its SSE name and its data, parsed. */
export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** The live stream as a test reads it. */
export interface LiveStream {
  res: Response;
  /** Every event so far, in order (the hello first). */
  events: StreamEvent[];
  /** The first event matching `pred`, already here or to come; rejects after `ms` naming what it saw. */
  next(pred: (e: StreamEvent) => boolean, ms?: number): Promise<StreamEvent>;
  close(): void;
}

/**
 * Opens `url` (a `GET /__admin/stream`) and reads it as a browser's EventSource would: `event:` and
 * `data:` lines, blank-line separated, as they arrive, until `close()`.
 */
export async function openStream(url: string): Promise<LiveStream> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
        for (const w of [...waiters]) w();
      }
    } catch {
      // aborted by the test
    }
  })();
  const next = (pred: (e: StreamEvent) => boolean, ms = WAIT_DEADLINE_MS) =>
    new Promise<StreamEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(waitExpired(`a stream event ${pred}`, ms, `heard: ${events.map((e) => e.event).join(', ')}`));
      }, ms);
      const check = () => {
        const found = events.find(pred);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
    });
  return { res, events, next, close: () => controller.abort() };
}

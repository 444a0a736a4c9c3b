import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Activity } from '../activity/index.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** A comment line this often keeps proxies and browsers from closing an idle stream. */
export const KEEPALIVE_MS = 15_000;
/**
 * Activities one client may have waiting to be written; beyond it they are dropped and a `resync`
 * event tells the client to read the lists again (a dashboard left open during a load test must not
 * hold the emulator's memory).
 */
export const MAX_QUEUED = 5_000;

/**
 * `GET /__admin/stream`: Server-Sent Events, one per activity, the SSE event name being its kind
 * (`event`, `notification_created`, `attempt`, `batch`, `clock`, `token`, `admin`), the data its JSON.
 * The first event, `hello`, carries the clock; `resync` means some were dropped.
 */
export function streamRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    stream: (c) =>
      streamSSE(c, async (stream) => {
        let queue: Activity[] = [];
        let overflowed = false;
        let closed = false;
        let wake: (() => void) | undefined;
        const unsubscribe = emulator.activity.subscribe((activity) => {
          if (queue.length >= MAX_QUEUED) overflowed = true;
          else queue.push(activity);
          wake?.();
        });
        const close = () => {
          closed = true;
          wake?.();
        };
        stream.onAbort(close);
        c.req.raw.signal.addEventListener('abort', close);
        try {
          await stream.writeSSE({
            event: 'hello',
            data: JSON.stringify({ clock: emulator.clock.describe() }),
          });
          while (!closed) {
            if (queue.length === 0 && !overflowed) {
              let timer: NodeJS.Timeout | undefined;
              const woken = await new Promise<boolean>((resolve) => {
                wake = () => resolve(true);
                timer = setTimeout(() => resolve(false), KEEPALIVE_MS);
              });
              wake = undefined;
              clearTimeout(timer);
              if (!woken && !closed) await stream.write(': keep-alive\n\n');
              continue;
            }
            const batch = queue;
            queue = [];
            for (const a of batch) await stream.writeSSE({ event: a.kind, data: JSON.stringify(a) });
            if (overflowed) {
              overflowed = false;
              await stream.writeSSE({ event: 'resync', data: '{}' });
            }
          }
        } finally {
          unsubscribe();
        }
      }),
  });
}

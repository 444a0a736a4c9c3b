import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Activity } from '../activity/index.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** A comment line this often keeps proxies and browsers from closing an idle stream. */
export const KEEPALIVE_MS = 15_000;
/**
 * Bytes of events one client may have waiting for its connection to take them; past it the client
 * is dropped (its connection closed), so a client that does not read cannot hold the emulator's
 * memory (decision 0044). A reading client never gets near it; a browser's EventSource reconnects
 * by itself, and the `hello` of the new connection tells the dashboard to read the lists again. At
 * most about three times this is held per client: the waiting events, one chunk being handed over
 * and one in the socket's buffer.
 */
export const STREAM_CLIENT_BUFFER_BYTES = 256 * 1024;

/**
 * Events published within this long go out to each client in one write: a write per event per
 * client (200 clients, 15,000 activities) was most of the emulator's time and its health answer's
 * delay in test/stream-load.test.ts.
 */
export const STREAM_FLUSH_MS = 25;

interface Client {
  frames: Buffer[];
  bytes: number;
  wake: (() => void) | undefined;
  drop(waitingBytes: number): void;
}

/**
 * One subscription to the activity bus for every stream client of an emulator: each activity is
 * turned into its SSE frame once and handed to every client (200 clients cost one JSON.stringify).
 */
class StreamHub {
  readonly #clients = new Set<Client>();
  #unsubscribe: (() => void) | undefined;
  #flush: NodeJS.Timeout | undefined;

  constructor(private readonly emulator: Emulator) {}

  add(client: Client): void {
    this.#clients.add(client);
    this.#unsubscribe ??= this.emulator.activity.subscribe((a) => this.#publish(a));
  }

  remove(client: Client): void {
    this.#clients.delete(client);
    if (this.#clients.size === 0) {
      clearTimeout(this.#flush);
      this.#flush = undefined;
      this.#unsubscribe?.();
      this.#unsubscribe = undefined; // nobody listens: the bus skips building activities
    }
  }

  #publish(activity: Activity): void {
    // Encoded once for every client: UTF-8 encoding the same text per client was 6% of the
    // emulator's CPU with 200 clients; test/stream-load.test.ts's health p99 went 102 → 43-59 ms.
    const frame = Buffer.from(`event: ${activity.kind}\ndata: ${JSON.stringify(activity)}\n\n`);
    const bytes = frame.length;
    for (const client of this.#clients) {
      client.frames.push(frame);
      client.bytes += bytes;
      if (client.bytes > STREAM_CLIENT_BUFFER_BYTES) client.drop(client.bytes);
    }
    this.#flush ??= setTimeout(() => {
      this.#flush = undefined;
      for (const client of this.#clients) client.wake?.();
    }, STREAM_FLUSH_MS);
  }
}

/**
 * `GET /__admin/stream`: Server-Sent Events, one per activity, the SSE event name being its kind
 * (`event`, `notification_created`, `notification_changed`, `attempt_started`, `attempt`, `notifications_dropped`, `batch`, `clock`, `token`, `admin`), the data its JSON.
 * The first event, `hello`, carries the clock; a client that falls more than
 * STREAM_CLIENT_BUFFER_BYTES behind is dropped and reads the lists again when it reconnects.
 */
export function streamRoutes(emulator: Emulator): Hono {
  const hub = new StreamHub(emulator);
  return mount(new Hono(), {
    stream: (c) =>
      streamSSE(c, async (stream) => {
        let closed = false;
        const client: Client = {
          frames: [],
          bytes: 0,
          wake: undefined,
          drop(waitingBytes) {
            if (closed) return;
            emulator.log.warn(
              { waitingBytes, limitBytes: STREAM_CLIENT_BUFFER_BYTES },
              `live stream client dropped: ${waitingBytes} bytes of events waiting, over STREAM_CLIENT_BUFFER_BYTES (${STREAM_CLIENT_BUFFER_BYTES}); it does not read fast enough (a reconnecting client reads the lists again)`,
            );
            close();
            // The connection is stuck behind a client that does not read: only destroying it frees it.
            (c.env as Partial<HttpBindings> | undefined)?.outgoing?.destroy();
            stream.abort();
          },
        };
        const close = () => {
          closed = true;
          client.frames = [];
          client.bytes = 0;
          hub.remove(client);
          client.wake?.();
        };
        hub.add(client);
        stream.onAbort(close);
        c.req.raw.signal.addEventListener('abort', close);
        try {
          await stream.writeSSE({
            event: 'hello',
            data: JSON.stringify({ clock: emulator.clock.describe() }),
          });
          while (!closed) {
            if (client.frames.length === 0) {
              let timer: NodeJS.Timeout | undefined;
              const woken = await new Promise<boolean>((resolve) => {
                client.wake = () => resolve(true);
                timer = setTimeout(() => resolve(false), KEEPALIVE_MS);
              });
              client.wake = undefined;
              clearTimeout(timer);
              if (!woken && !closed) await stream.write(': keep-alive\n\n');
              continue;
            }
            // Everything waiting in one write: one await per wake-up, not one per event.
            const chunk =
              client.frames.length === 1 ? client.frames[0]! : Buffer.concat(client.frames, client.bytes);
            client.frames = [];
            client.bytes = 0;
            await stream.write(chunk);
          }
        } finally {
          close();
        }
      }),
  });
}

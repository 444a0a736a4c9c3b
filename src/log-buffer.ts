import { writeSync } from 'node:fs';

/** Past this many buffered characters a line buffer writes at once instead of at the end of the turn. */
const MAX_BUFFERED_CHARS = 64 * 1024;
const buffers = new Set<LineBuffer>();
let exitHook = false;

/**
 * Log lines written during one event-loop turn leave in one `write(2)`, at the end of the turn (or
 * sooner past 64 KiB), still synchronously and in order; whatever is left goes out on exit. With one
 * info line per GetAccessToken call, one syscall per line cost 7 µs of a ~60 µs request on the 2-core
 * bench machine (1.7 JSON throughput −26% at `--log-level info`); coalesced, the line costs its
 * serialization (~3 µs). See docs/decisions.md "Issue 13".
 */
export class LineBuffer {
  #text = '';
  #scheduled = false;
  readonly #flushSoon = () => this.flush();

  constructor(private readonly fd: number) {
    buffers.add(this);
    if (!exitHook) {
      exitHook = true;
      process.once('exit', () => {
        for (const b of buffers) b.flush();
      });
    }
  }

  write(line: string): void {
    this.#text += line;
    if (this.#text.length >= MAX_BUFFERED_CHARS) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flushSoon).unref();
    }
  }

  /** Writes everything buffered now; a full pipe (EAGAIN) is waited for, other errors drop the text. */
  flush(): void {
    this.#scheduled = false;
    if (this.#text === '') return;
    const data = Buffer.from(this.#text);
    this.#text = '';
    for (let offset = 0; offset < data.length; ) {
      try {
        offset += writeSync(this.fd, data, offset);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return; // stderr closed: nowhere to log
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  }
}

import { writeSync } from 'node:fs';

/** Past this many buffered characters a line buffer writes at once instead of at the end of the turn. */
const MAX_BUFFERED_CHARS = 64 * 1024;
/** Longest a line waits in the buffer: far below what a person reading the log notices. */
const FLUSH_DELAY_MS = 10;
const buffers = new Set<LineBuffer>();
let exitHook = false;

/**
 * Log lines written within 10 ms leave in one `write(2)` (sooner past 64 KiB), still synchronously
 * and in order; whatever is left goes out on exit (and `flushLogs`, before a fatal message). With one
 * info line per GetAccessToken call, a `write(2)` per line cost ~7 µs of a ~45 µs request on the
 * loaded 2-core machine (1.7 JSON −20-26 % at `--log-level info`). See decision 0034.
 */
/** Writes every buffered log line now (before a message written to stderr directly). */
export function flushLogs(): void {
  for (const b of buffers) b.flush();
}

export class LineBuffer {
  #text = '';
  #scheduled = false;
  readonly #flushSoon = () => this.flush();

  constructor(private readonly fd: number) {
    buffers.add(this);
    if (!exitHook) {
      exitHook = true;
      process.once('exit', flushLogs);
    }
  }

  write(line: string): void {
    this.#text += line;
    if (this.#text.length >= MAX_BUFFERED_CHARS) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setTimeout(this.#flushSoon, FLUSH_DELAY_MS).unref();
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

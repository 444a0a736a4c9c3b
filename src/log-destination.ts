import { write, writeSync } from 'node:fs';

/** What a LogDestination tells its owner when lines were lost. */
export interface LogDropNotice {
  /** Lines dropped since the last notice. */
  dropped: number;
  /** Why: the error the destination answered (`ENOSPC: no space left on device`) or a full queue. */
  cause: string;
}

/** How long a write the destination refused with EAGAIN (a pipe nobody reads) waits before it is tried again. */
const BUSY_RETRY_MS = 10;
/** How many times the flush at exit tries a write that answers EAGAIN before it drops the rest. */
const EXIT_BUSY_TRIES = 20;

/**
 * The log's one asynchronous destination (decision 0126): lines are queued as Buffers and written
 * with one `fs.write` at a time, the lines queued meanwhile gathered into the next. A destination
 * that fails (disk full, a closed pipe) never stops the emulator: the lines of a failed write are
 * dropped and counted, the first drop is said once on stderr, and `onDrop` hears the count once the
 * destination takes lines again. `flushSync` (at a stop) tries each queued write once (EAGAIN a
 * bounded number of times) and drops what it cannot write, so logging never blocks a shutdown.
 */
export class LogDestination {
  readonly #fd: number;
  readonly #maxQueuedBytes: number;
  readonly #onDrop: (notice: LogDropNotice) => void;
  #queue: Buffer[] = [];
  #queuedBytes = 0;
  #writing = false;
  #dropped = 0;
  #droppedTotal = 0;
  #cause = '';
  #told = false;

  constructor(fd: number, maxQueuedBytes: number, onDrop: (notice: LogDropNotice) => void) {
    this.#fd = fd;
    this.#maxQueuedBytes = maxQueuedBytes;
    this.#onDrop = onDrop;
  }

  /** Lines dropped since this destination was made. */
  get droppedTotal(): number {
    return this.#droppedTotal;
  }

  write(line: Buffer): void {
    if (this.#queuedBytes + line.length > this.#maxQueuedBytes) {
      this.#drop(1, `more than ${this.#maxQueuedBytes} bytes of log waiting for a slow destination`);
      return;
    }
    this.#queue.push(line);
    this.#queuedBytes += line.length;
    if (!this.#writing) this.#writeQueued();
  }

  /** Writes what is queued now, without waiting on the event loop; drops what cannot be written. */
  flushSync(): void {
    const chunk = this.#take();
    if (!chunk) return;
    let at = 0;
    let busy = 0;
    while (at < chunk.buf.length) {
      try {
        const n = writeSync(this.#fd, chunk.buf, at, chunk.buf.length - at);
        if (n <= 0) break;
        at += n;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if ((code === 'EAGAIN' || code === 'EBUSY') && ++busy < EXIT_BUSY_TRIES) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_RETRY_MS);
          continue;
        }
        this.#cause = describe(err);
        break;
      }
    }
    if (at < chunk.buf.length) this.#drop(linesIn(chunk.buf.subarray(at)), this.#cause);
  }

  #take(): { buf: Buffer; lines: number } | undefined {
    if (this.#queue.length === 0) return undefined;
    const lines = this.#queue.length;
    const buf = lines === 1 ? this.#queue[0]! : Buffer.concat(this.#queue, this.#queuedBytes);
    this.#queue = [];
    this.#queuedBytes = 0;
    return { buf, lines };
  }

  #writeQueued(): void {
    const chunk = this.#take();
    if (!chunk) {
      this.#writing = false;
      return;
    }
    this.#writing = true;
    this.#send(chunk.buf, chunk.lines);
  }

  #send(buf: Buffer, lines: number): void {
    write(this.#fd, buf, 0, buf.length, null, (err, n) => {
      if (err) {
        const code = err.code;
        if (code === 'EAGAIN' || code === 'EBUSY') {
          setTimeout(() => this.#send(buf, lines), BUSY_RETRY_MS).unref();
          return;
        }
        this.#drop(lines, describe(err));
      } else if (n < buf.length) {
        const rest = buf.subarray(n);
        this.#send(rest, linesIn(rest));
        return;
      } else if (this.#dropped > 0) {
        const notice = { dropped: this.#dropped, cause: this.#cause };
        this.#dropped = 0;
        this.#told = false;
        this.#onDrop(notice);
      }
      this.#writeQueued();
    });
  }

  #drop(lines: number, cause: string): void {
    this.#dropped += lines;
    this.#droppedTotal += lines;
    this.#cause = cause;
    if (this.#told) return;
    this.#told = true;
    // Once per episode, straight to stderr: that may be the destination that fails, so it may be lost too.
    try {
      writeSync(
        2,
        `reportbo-emulator: the log cannot be written (${cause}): dropping lines until it can; the count follows in the log\n`,
      );
    } catch {
      // stderr is the failing destination: nothing else to tell.
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message.replace(/, write$/, '') : String(err);
}

/** Lines in `buf` (a cut last line counts as one). */
function linesIn(buf: Buffer): number {
  let lines = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
  return buf.length > 0 && buf[buf.length - 1] !== 10 ? lines + 1 : lines;
}

/**
 * Where packed bodies live (decision 0153): in a file of the process's own, not in its memory. A
 * pending notification's gzip body (~1.3 KB) was more than half of its RSS (decision 0135); the file's
 * pages are the kernel's cache, which it can drop and read back, not the process's resident memory.
 *
 * Bodies are copied side by side into one 64 KiB slab in memory; a full slab is written to the file
 * at its place and the slab is filled again from its start, so the newest bodies (at most one slab)
 * are still in memory, a body is written once with ~50 others, and no 64 KiB allocation is made and
 * freed per 50 bodies (malloc's arena kept ~24 MiB of such holes over 20,000 bodies). Reads answer
 * copies, so a slab filled again never changes bytes a caller holds. The file is unlinked as soon as it is opened (POSIX keeps it
 * while the descriptor is open), so nothing is left behind whatever way the process ends; where
 * that fails (Windows) it is removed at exit. A file that cannot be opened or written keeps the
 * bodies in memory instead: slower to grow, never lost.
 */
import { closeSync, openSync, read, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bodies are copied side by side into slabs of this size (~50 bodies of ~1.3 KB each). */
export const BODY_SLAB_BYTES = 64 * 1024;
/** A body larger than this gets a slab of its own, of its exact size (a shared slab would waste its tail). */
export const BODY_OWN_SLAB_BYTES = BODY_SLAB_BYTES / 4;
/** `concatBodies` reads neighbours with one read while the gap between them is at most this. */
const COALESCE_GAP_BYTES = 16 * 1024;
/** …and while the read stays at most this long. */
const COALESCE_MAX_BYTES = 1024 * 1024;

/** Files opened by this process: two opened in the same millisecond get different names. */
let opened = 0;

/** A slab the file could not take: kept in memory, found by its start. */
interface KeptSlab {
  start: number;
  bytes: Buffer;
}

/**
 * One packed body: where it is in its BodyFile and how long it is (20 bytes of heap instead of a
 * 96-byte Buffer view and its bytes). The same instance is shared by a reservation and the
 * notifications made of it, so `===` still tells a shared body.
 */
export class StoredBody {
  /** Its sketch's number among its file's sketches (src/contract/sketch.ts, decision 0254); -1: none yet. */
  sketch = -1;

  constructor(
    readonly file: BodyFile,
    readonly offset: number,
    readonly length: number,
  ) {}

  /** The bytes, read at once (the inspector, exports, the search, the data dir). Throws if unreadable. */
  bytes(): Buffer {
    return this.file.bytes(this);
  }

  /** The bytes, read without holding the event loop (a delivery attempt). Rejects if unreadable. */
  read(): Promise<Buffer> {
    return this.file.read(this);
  }

  /**
   * Copies the bytes into `target` at `targetStart`, read straight from where they are (a data dir
   * record is encoded around them without a Buffer of their own); answers the count, as
   * `Buffer.copy` does. Throws if unreadable.
   */
  copy(target: Uint8Array, targetStart: number): number {
    return this.file.copy(this, target, targetStart);
  }

  /** As JSON it is its bytes, as the Buffer it replaced was (`{ type: 'Buffer', data }`). */
  toJSON(): { type: 'Buffer'; data: number[] } {
    return this.bytes().toJSON();
  }
}

/** The bytes of `bodies` laid end to end, neighbours in a file read at once (`BodyFile.concat`). */
export function concatBodies(bodies: readonly StoredBody[]): Buffer {
  const file = bodies[0]?.file;
  return file ? file.concat(bodies) : Buffer.alloc(0);
}

/** An append-only file of packed bodies, one per process (`BodyFile.shared`), with its newest slab in memory. */
export class BodyFile {
  static #shared: BodyFile | undefined;

  /** The process's body file, under the OS temp dir, opened at the first full slab. */
  static get shared(): BodyFile {
    BodyFile.#shared ??= new BodyFile(tmpdir());
    return BodyFile.#shared;
  }

  /** The descriptor; undefined before the first full slab, null once the file failed (bodies stay in memory). */
  #fd: number | null | undefined;
  #path = '';
  /** Where the next slab begins (the file's length, with the tails slabs did not fill). */
  #end = 0;
  #slab = Buffer.alloc(0);
  #slabStart = 0;
  #slabUsed = 0;
  /** Slabs the file could not take, in order of `start`. */
  readonly #kept: KeptSlab[] = [];
  /** Why the file failed, for the messages of reads (null while it works). */
  #failure: string | null = null;

  constructor(private readonly dir: string) {}

  /** Copies `view` into the file (or its slab in memory) and answers where it is. */
  keep(view: Uint8Array): StoredBody {
    const length = view.length;
    if (length > BODY_OWN_SLAB_BYTES) {
      const start = this.#end;
      this.#end += length;
      this.#store(start, Buffer.from(view));
      return new StoredBody(this, start, length);
    }
    if (this.#slabUsed + length > this.#slab.length) {
      this.#flush();
      if (this.#slab.length === 0) this.#slab = Buffer.alloc(BODY_SLAB_BYTES);
      this.#slabStart = this.#end;
      this.#slabUsed = 0;
      this.#end += BODY_SLAB_BYTES;
    }
    const at = this.#slabUsed;
    this.#slab.set(view, at);
    this.#slabUsed += length;
    return new StoredBody(this, this.#slabStart + at, length);
  }

  bytes(body: StoredBody): Buffer {
    const inMemory = this.#inMemory(body.offset, body.length);
    if (inMemory) return inMemory;
    const out = Buffer.allocUnsafe(body.length);
    this.#readInto(body, out, 0);
    return out;
  }

  copy(body: StoredBody, target: Uint8Array, targetStart: number): number {
    const view = this.#memoryView(body.offset, body.length);
    if (view) target.set(view, targetStart);
    else this.#readInto(body, target, targetStart);
    return body.length;
  }

  #readInto(body: StoredBody, target: Uint8Array, targetStart: number): void {
    let got = 0;
    try {
      while (got < body.length) {
        const n = readSync(
          this.#fd as number,
          target,
          targetStart + got,
          body.length - got,
          body.offset + got,
        );
        if (n === 0) break;
        got += n;
      }
    } catch (err) {
      throw this.#unreadable(body, err);
    }
    if (got < body.length) throw this.#unreadable(body, `the file ended after ${got} bytes`);
  }

  read(body: StoredBody): Promise<Buffer> {
    const inMemory = this.#inMemory(body.offset, body.length);
    if (inMemory) return Promise.resolve(inMemory);
    const out = Buffer.allocUnsafe(body.length);
    return new Promise((resolve, reject) => {
      const more = (got: number) => {
        if (got === body.length) return resolve(out);
        if (this.#fd == null) return reject(this.#unreadable(body, 'the file was closed'));
        read(this.#fd, out, got, body.length - got, body.offset + got, (err, n) => {
          if (err) return reject(this.#unreadable(body, err));
          if (n === 0) return reject(this.#unreadable(body, `the file ended after ${got} bytes`));
          more(got + n);
        });
      };
      more(0);
    });
  }

  /**
   * The bytes of `bodies` laid end to end, in their order; those of this file that are neighbours in
   * it (in any order, a body shared by two notifications included) read with one read. A search
   * decodes 32 bodies at a time, newest first: one or two reads instead of 32.
   */
  concat(bodies: readonly StoredBody[]): Buffer {
    const pieces: Buffer[] = new Array(bodies.length);
    const inFile: number[] = [];
    for (const [i, b] of bodies.entries()) {
      if (b.file === this && !this.#memoryView(b.offset, b.length)) inFile.push(i);
      else pieces[i] = b.bytes();
    }
    inFile.sort((a, b) => (bodies[a] as StoredBody).offset - (bodies[b] as StoredBody).offset);
    for (let k = 0; k < inFile.length; ) {
      const first = bodies[inFile[k] as number] as StoredBody;
      let end = first.offset + first.length;
      let last = k;
      while (last + 1 < inFile.length) {
        const next = bodies[inFile[last + 1] as number] as StoredBody;
        const nextEnd = next.offset + next.length;
        if (next.offset - end > COALESCE_GAP_BYTES || nextEnd - first.offset > COALESCE_MAX_BYTES) break;
        end = Math.max(end, nextEnd);
        last++;
      }
      const span =
        last === k ? first.bytes() : this.bytes(new StoredBody(this, first.offset, end - first.offset));
      for (let m = k; m <= last; m++) {
        const i = inFile[m] as number;
        const b = bodies[i] as StoredBody;
        pieces[i] = span.subarray(b.offset - first.offset, b.offset - first.offset + b.length);
      }
      k = last + 1;
    }
    return Buffer.concat(pieces);
  }

  /** Another file of the same kind in the same directory (the bodies' sketches, src/contract/sketch.ts). */
  sibling(): BodyFile {
    return new BodyFile(this.dir);
  }

  /** Closes the file (tests: what an attempt does with a body it cannot read); later bodies stay in memory. */
  close(): void {
    if (this.#fd) closeSync(this.#fd);
    this.#fail('the body file was closed');
  }

  /** A copy of the bytes when they are in memory (the current slab or a kept one), else undefined. */
  #inMemory(offset: number, length: number): Buffer | undefined {
    const view = this.#memoryView(offset, length);
    return view && Buffer.from(view);
  }

  /** The bytes in memory (the current slab, which is filled again, or a kept one), else undefined. */
  #memoryView(offset: number, length: number): Buffer | undefined {
    if (offset >= this.#slabStart && offset + length <= this.#slabStart + this.#slabUsed && this.#slab.length)
      return this.#slab.subarray(offset - this.#slabStart, offset - this.#slabStart + length);
    const kept = this.#kept;
    if (kept.length === 0) return undefined;
    // Binary search for the last slab starting at or before `offset`.
    let lo = 0;
    let hi = kept.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((kept[mid] as KeptSlab).start <= offset) lo = mid;
      else hi = mid - 1;
    }
    const slab = kept[lo] as KeptSlab;
    if (offset < slab.start || offset + length > slab.start + slab.bytes.length) return undefined;
    return slab.bytes.subarray(offset - slab.start, offset - slab.start + length);
  }

  #flush(): void {
    if (this.#slabUsed === 0) return;
    this.#store(this.#slabStart, this.#slab.subarray(0, this.#slabUsed), true);
  }

  /** Writes `bytes` at `start`; kept in memory (a copy when `reused`: the slab) when the file cannot take them. */
  #store(start: number, bytes: Buffer, reused = false): void {
    if (this.#fd === undefined) this.#open();
    if (this.#fd !== null && this.#fd !== undefined) {
      try {
        let done = 0;
        while (done < bytes.length)
          done += writeSync(this.#fd, bytes, done, bytes.length - done, start + done);
        return;
      } catch (err) {
        this.#fail(`writing it failed (${err instanceof Error ? err.message : String(err)})`);
      }
    }
    // A large body gets its place before the slab still being filled is stored: keep the order.
    const kept = this.#kept;
    let at = kept.length;
    while (at > 0 && (kept[at - 1] as KeptSlab).start > start) at--;
    kept.splice(at, 0, { start, bytes: reused ? Buffer.from(bytes) : bytes });
  }

  #open(): void {
    const path = join(
      this.dir,
      `reportbo-emulator-bodies-${process.pid}-${Date.now().toString(36)}-${++opened}`,
    );
    try {
      this.#fd = openSync(path, 'wx+', 0o600);
    } catch (err) {
      this.#fail(
        `it could not be opened in ${this.dir} (${err instanceof Error ? err.message : String(err)})`,
      );
      return;
    }
    this.#path = path;
    try {
      unlinkSync(path);
    } catch {
      process.once('exit', () => rmSync(this.#path, { force: true }));
    }
  }

  #fail(why: string): void {
    this.#fd = null;
    this.#failure = why;
  }

  #unreadable(body: StoredBody, cause: unknown): Error {
    const why = cause instanceof Error ? cause.message : String(cause);
    return new Error(
      `the body (${body.length} bytes at ${body.offset} of the emulator's body file) could not be read back: ${this.#failure ?? why}`,
    );
  }
}

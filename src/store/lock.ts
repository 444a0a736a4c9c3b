import { closeSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConflictError } from '../errors.js';

/** What the lock file says about the emulator that holds a data dir. */
export interface LockOwner {
  pid: number;
  host: string;
  port: number;
  startedAt: string;
}

export const LOCK_FILE = 'lock.json';

/**
 * Takes the data dir's lock (`lock.json`, created exclusively) or refuses, naming the emulator that
 * holds it. A lock whose process is gone (same host, no such pid) is stale: taken over, with a notice.
 */
export class DirLock {
  readonly #file: string;
  readonly #owner: LockOwner;

  private constructor(file: string, owner: LockOwner) {
    this.#file = file;
    this.#owner = owner;
  }

  /** Takes the lock of `dir`; answers it and, when a stale lock was taken over, a notice. */
  static take(dir: string, port: number): { lock: DirLock; notice?: string } {
    const file = join(dir, LOCK_FILE);
    const owner: LockOwner = {
      pid: process.pid,
      host: hostname(),
      port,
      startedAt: new Date().toISOString(),
    };
    for (let tries = 0; tries < 2; tries++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, `${JSON.stringify(owner)}\n`);
        closeSync(fd);
        return { lock: new DirLock(file, owner) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const held = readOwner(file);
      if (held && (held.host !== owner.host || isAlive(held.pid))) {
        throw new ConflictError(
          'data_dir_locked',
          `The data dir ${dir} is in use by another emulator (pid ${held.pid} on ${held.host}, port ${held.port}, started ${held.startedAt}). Stop that one, or give this one another data dir (--data-dir). If that emulator is gone (another host's process cannot be checked), delete ${file}.`,
          { dataDir: dir, owner: held },
        );
      }
      unlinkSync(file);
      if (held) {
        const notice = `data dir ${dir}: took over a stale lock of pid ${held.pid} (no longer running; port ${held.port}, started ${held.startedAt})`;
        const taken = DirLock.take(dir, port);
        return { lock: taken.lock, notice };
      }
    }
    throw new ConflictError('data_dir_locked', `Cannot take the lock ${file}: it keeps reappearing.`);
  }

  /** Writes the port once the server listens (it may have been 0 when the lock was taken). */
  setPort(port: number): void {
    this.#owner.port = port;
    writeFileSync(this.#file, `${JSON.stringify(this.#owner)}\n`);
  }

  release(): void {
    try {
      if (readOwner(this.#file)?.pid === process.pid) unlinkSync(this.#file);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return typeof parsed.pid === 'number' ? parsed : undefined;
  } catch {
    return undefined; // unreadable or half-written: treated as stale
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

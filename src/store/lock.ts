import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { ConflictError } from '../errors.js';

/** What the lock file says about the emulator that holds a data dir. */
export interface LockOwner {
  pid: number;
  host: string;
  port: number;
  startedAt: string;
  /** The process's start time in clock ticks since boot (Linux `/proc/<pid>/stat`), when known. */
  procStart?: string;
}

export const LOCK_FILE = 'lock.json';

/** Lock files this process holds: a lock naming this pid but not in here is a previous process's. */
const HELD = new Set<string>();

/**
 * The data dir's lock (`lock.json`, decision 0126), written whole and hard-linked into place, so a
 * lock that cannot be read is held. A lock whose process is gone is taken over, with a notice. Gone,
 * on the same host: no such pid, a pid now running another process (its start time differs), or
 * this pid while this process does not hold the lock (a container restarted runs as pid 1 again).
 */
export class DirLock {
  private constructor(
    private readonly file: string,
    private readonly owner: LockOwner,
  ) {}

  /** Takes the lock of `dir`; answers it and, when a stale lock was taken over, a notice. */
  static take(dir: string, port: number): { lock: DirLock; notice?: string } {
    const file = resolve(dir, LOCK_FILE);
    const owner: LockOwner = {
      pid: process.pid,
      host: hostname(),
      port,
      startedAt: new Date().toISOString(),
      ...procStartOf('self'),
    };
    let notice: string | undefined;
    for (let tries = 0; tries < 3; tries++) {
      if (placeWhole(file, owner, linkSync)) {
        HELD.add(file);
        return { lock: new DirLock(file, owner), ...(notice ? { notice } : {}) };
      }
      const held = readOwner(file);
      if (held === 'unreadable')
        throw new ConflictError(
          'data_dir_locked',
          `The data dir ${dir} is locked: its lock ${file} cannot be read as a lock: another emulator may be writing it. If no emulator uses this data dir (a disk that filled up, a copy), delete ${file} and start again.`,
          { dataDir: dir, lockFile: file },
        );
      if (held && (held.host !== owner.host || isAlive(held, file)))
        throw new ConflictError(
          'data_dir_locked',
          `The data dir ${dir} is in use by another emulator (pid ${held.pid} on ${held.host}, port ${held.port}, started ${held.startedAt}). Stop that one, or give this one another data dir (--data-dir). If that emulator is gone (another host's process cannot be checked), delete ${file}.`,
          { dataDir: dir, owner: held },
        );
      if (held) {
        rmSync(file, { force: true });
        notice = `data dir ${dir}: took over a stale lock of pid ${held.pid} (no longer running; port ${held.port}, started ${held.startedAt})`;
      }
      // None: gone between the link and the read (its emulator stopped): try again.
    }
    throw new ConflictError('data_dir_locked', `Cannot take the lock ${file}: it keeps reappearing.`);
  }

  /** Writes the port once the server listens (it may have been 0 when the lock was taken). */
  setPort(port: number): void {
    this.owner.port = port;
    placeWhole(this.file, this.owner, renameSync); // replaces it whole: never seen half-written
  }

  release(): void {
    HELD.delete(this.file);
    try {
      const held = readOwner(this.file);
      if (typeof held === 'object' && held.pid === process.pid) unlinkSync(this.file);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

/** Puts `owner` at `file` whole, through a synced temporary file `place`d (linked: false when `file` exists). */
function placeWhole(file: string, owner: LockOwner, place: (tmp: string, file: string) => void): boolean {
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(owner)}\n`, { flag: 'wx', flush: true });
    place(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // Renamed, or never written.
    }
  }
}

/** The lock's owner; undefined without a lock file; `unreadable` when it is not a whole lock. */
function readOwner(file: string): LockOwner | 'unreadable' | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return typeof parsed?.pid === 'number' ? parsed : 'unreadable';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreadable';
  }
}

/** Whether the lock's owner still runs (same host only: another host's process cannot be checked). */
function isAlive(owner: LockOwner, file: string): boolean {
  if (owner.pid === process.pid) return HELD.has(file);
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid runs, but maybe as another process since (pid reuse after a reboot or a restart).
  const now = procStartOf(String(owner.pid)).procStart;
  return owner.procStart === undefined || now === undefined || now === owner.procStart;
}

/** `{procStart}` of a process from `/proc/<pid>/stat` (field 22), or nothing off Linux. */
function procStartOf(pid: string): { procStart?: string } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // From field 3 on: the command name before it is in parentheses and may hold spaces.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start ? { procStart: start } : {};
  } catch {
    return {};
  }
}

import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';

/** Fills the file system with `file` until it refuses another byte (a full disk, for real). */
export function fillFileSystem(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4096, 0x61);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  // Byte by byte into the last page, so nothing is left for the journal but its own slack.
  try {
    for (;;) writeSync(fd, chunk, 0, 1);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

/**
 * Mounts a tmpfs of 512 KiB on `root` (a small disk to fill); answers why it could not (not root, no
 * mount permission in this container), or undefined once mounted. `unmountSmallDisk` undoes it.
 */
export function mountSmallDisk(root: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', root], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `mounting a tmpfs needs root and mount permission: ${(err as Error).message.split('\n')[0]}`;
  }
}

export function unmountSmallDisk(root: string): void {
  execFileSync('umount', ['--lazy', root]);
}

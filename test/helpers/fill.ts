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

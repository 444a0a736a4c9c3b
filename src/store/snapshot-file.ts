import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { closeQuietly, DATA_DIR_FORMAT } from './dir-files.js';
import type { OutgoingRecord } from './kinds.js';
import { RecordSlices } from './records.js';

/** What a snapshot file holds: its bytes and its records, the header counted. */
interface Written {
  bytes: number;
  records: number;
}

/** Writes snapshot `generation` to `file`: its header, then every record of `state`; synced. */
export function writeSnapshot(file: string, generation: number, state: Iterable<OutgoingRecord>): Written {
  const fd = openSync(file, 'w');
  try {
    const out = new RecordSlices(fd);
    out.add({ k: 'snapshot', d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() } });
    for (const rec of state) out.add(rec);
    out.flush();
    fsyncSync(fd);
    return { bytes: out.bytes, records: out.records };
  } finally {
    closeSync(fd);
  }
}

/**
 * The same a slice at a time (decision 0146): the records are built as they are taken (the state
 * was cut already); each full slice is written, then the event loop answers what waited before the
 * next is encoded. Throws `overtaken` once `wanted` answers false.
 */
export async function writeSnapshotInSlices(
  file: string,
  generation: number,
  state: Iterable<OutgoingRecord>,
  wanted: () => boolean,
): Promise<Written> {
  const fd = openSync(file, 'w');
  try {
    const out = new RecordSlices(fd);
    out.add({ k: 'snapshot', d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() } });
    for (const rec of state) {
      if (out.add(rec)) {
        await new Promise((resolve) => setImmediate(resolve));
        if (!wanted()) throw new Error('overtaken');
      }
    }
    out.flush();
    await new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
    return { bytes: out.bytes, records: out.records };
  } finally {
    closeQuietly(fd);
  }
}

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DataDir } from './data-dir.js';
import type { KeptRecord } from './kinds.js';

const named = (name: string): KeptRecord => ({ k: 'user-', d: { username: name } });

/** A data dir whose snapshot holds a header and two records, the last one failing its checksum. */
async function damagedSnapshot(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'reportbo-snapshot-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const d = DataDir.open(dir, 0, () => {});
  await d.compactInBackground([named('kept'), named('lost')]);
  d.close();
  const file = join(dir, 'snapshot.bin');
  const bytes = readFileSync(file);
  bytes[bytes.length - 3]! ^= 0xff;
  writeFileSync(file, bytes);
  return dir;
}

describe('a snapshot whose header reads and a later record does not', () => {
  it('is damage like any other record that does not read: refused naming the loss, kept up to it when accepted', async () => {
    const dir = await damagedSnapshot();
    expect(() => DataDir.open(dir, 0, () => {})).toThrow(
      /has lost acknowledged records:\n {2}- snapshot\.bin: a record that fails its checksum at byte \d+: lost 1 of its \d+ records/,
    );
    const read: KeptRecord[] = [];
    const d = DataDir.open(dir, 0, (r) => read.push(r), { acceptDataLoss: true });
    expect(read).toEqual([named('kept')]);
    expect(d.notices.join('\n')).toMatch(/accepted a loss \(--accept-data-loss\): snapshot\.bin: a record/);
    d.close();
  });
});

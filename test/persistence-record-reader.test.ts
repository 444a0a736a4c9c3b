import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPath } from '../src/errors.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { keptRecord, RECORD_SHAPES, type RecordKind } from '../src/store/kinds.js';
import { decodeRecords } from '../src/store/records.js';
import { behave, type Receiver, receiver } from './helpers/receiver.js';

// Reading a record back takes a fast path (a plain predicate compiled from its kind's zod shape,
// src/store/kinds.ts) before zod itself. The class of bug it could bring: a record the fast path
// accepts that zod refuses, or data read differently. Every record a real emulator wrote, and
// every one-member mutation of it, must be read exactly as zod reads it.

let root: string;
let rec: Receiver;
const records: Array<{ k: RecordKind; d: unknown; b?: Buffer | undefined }> = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'reportbo-reader-'));
  // Every other POST refused: notifications with failed and delivered attempts, redelivered in a batch.
  rec = await receiver({ script: (req) => (req.index % 2 === 0 ? behave.status(503) : undefined) });
  const dataDir = join(root, 'data');
  const emu: RunningEmulator = await startServer({
    port: 0,
    logLevel: 'silent',
    allowHttp: true,
    dataDir,
    clock: 'manual',
    clockStart: '2026-04-27T10:00:00Z',
  });
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${emu.url}/__admin${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.text());
  await admin('POST', '/users', { username: 'ana', password: 'pw', idWeb: 7, webDescription: 'Ana' });
  await admin('POST', '/credentials', { id: 'c1', apiKey: 'reader-key-01', url: rec.url });
  await admin('POST', '/faults', { kind: 'status', status: 503, count: 1 });
  await admin('POST', '/outages', { attempts: 1, note: 'one' });
  for (let i = 0; i < 3; i++) await admin('POST', '/events', { type: 'Issue' });
  await admin('GET', '/notifications?wait=settled');
  await admin('POST', '/clock/advance', { by: 'PT1H' });
  await admin('GET', '/notifications?wait=settled');
  // The first call meets the fault (503); the second is issued a token.
  for (let i = 0; i < 2; i++)
    await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'ana', Password: 'pw' }),
    });
  await emu.close();
  decodeRecords(readFileSync(join(dataDir, 'journal-0.bin')), (r) => records.push(r));
});
afterAll(async () => {
  await rec?.close();
  rmSync(root, { recursive: true, force: true });
});

/** How kinds.ts words the first issue zod found. */
function misfitOf(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `field ${formatPath(issue.path)}: ${issue.message}` : issue.message;
}

/** The values a member is set to in the mutations. */
const REPLACEMENTS: unknown[] = [undefined, null, 42, 1.5, -1, 'x', '', true, [], {}, ['x'], { zz: 1 }];

/** `root` with the member at `path` replaced (undefined: deleted). */
function replaceAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

/** Every mutant of one record's data: each member (at any depth) replaced, deleted, or a member added. */
function mutants(d: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (node: unknown, path: Array<string | number>) => {
    for (const value of REPLACEMENTS) out.push(replaceAt(d, path, value));
    if (typeof node !== 'object' || node === null) return;
    if (!Array.isArray(node)) out.push(replaceAt(d, [...path, 'zz'], 1));
    for (const [key, member] of Object.entries(node))
      walk(member, [...path, Array.isArray(node) ? Number(key) : key]);
  };
  walk(d, []);
  return out;
}

describe('reading a record back', () => {
  it('wrote records of the bulk kinds to read (the fixture is real)', () => {
    const kinds = new Set(records.map((r) => r.k));
    for (const k of [
      'reservation_saved',
      'notification_created',
      'attempt_started',
      'attempt_ended',
      'batch_done',
      'call_journaled',
      'token_issued',
      'fault_used',
      'outage_used',
      'user_added',
      'credential_added',
      'clock_advanced',
    ])
      expect(kinds).toContain(k);
  });

  it('reads every record and every mutation of it exactly as zod reads it', () => {
    let checked = 0;
    let refused = 0;
    for (const r of records) {
      for (const d of [r.d, ...mutants(r.d)]) {
        const read = keptRecord(r.k, d, r.b);
        const zod = RECORD_SHAPES[r.k].safeParse(d);
        const what = `${r.k} ${JSON.stringify(d)}`;
        if (zod.success) {
          expect(read, what).toEqual(r.b ? { k: r.k, d: zod.data, b: r.b } : { k: r.k, d: zod.data });
        } else {
          expect(read, what).toBe(
            `record "${r.k}" whose data does not fit its kind (${misfitOf(zod.error.issues[0]!)})`,
          );
          refused++;
        }
        checked++;
      }
    }
    expect(refused).toBeGreaterThan(checked / 2);
  });

  it('keeps the members of a record in the order they were written (a restart answers the same JSON)', () => {
    for (const r of records) {
      const read = keptRecord(r.k, r.d, r.b);
      expect(typeof read === 'string' ? read : JSON.stringify(read.d)).toBe(JSON.stringify(r.d));
    }
  });
});

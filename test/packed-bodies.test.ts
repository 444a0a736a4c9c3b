import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsInput } from '../src/config/index.js';
import { wireBytes } from '../src/contract/index.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { decodeRecords, encodeRecord, type StoreRecord } from '../src/store/records.js';
import { behave, type Receiver, receiver } from './helpers/receiver.js';

// Bodies kept packed against a dictionary and gzipped afresh per attempt (decision 0134): every
// attempt, the body.gz download and the HAR export carry the same gzip bytes, and a data dir written
// when bodies were kept as gzip (format 1) is read back and sends its bodies as they were.

const dirs: string[] = [];
const running: Array<RunningEmulator | Receiver> = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serve(input: SettingsInput): Promise<RunningEmulator> {
  const r = await startServer({ port: 0, logLevel: 'silent', allowHttp: true, ...input });
  running.push(r);
  return r;
}

async function admin<T = Record<string, unknown>>(
  r: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${r.url}/__admin${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function bodyGz(r: RunningEmulator, id: string): Promise<Buffer> {
  return Buffer.from(await (await fetch(`${r.url}/__admin/notifications/${id}/body.gz`)).arrayBuffer());
}

/** Rewrites every body in a data dir's files as plain gzip and its format.json as 1: a dir an older emulator wrote. */
function asFormat1(dir: string): number {
  let bodies = 0;
  for (const f of readdirSync(dir).filter((name) => name.endsWith('.bin'))) {
    const records: StoreRecord[] = [];
    decodeRecords(readFileSync(join(dir, f)), (rec) => {
      if (rec.b && rec.b[0] !== 0x1f) {
        bodies++;
        records.push({ ...rec, b: wireBytes(rec.b) });
      } else records.push(rec);
    });
    writeFileSync(join(dir, f), Buffer.concat(records.map(encodeRecord)));
  }
  writeFileSync(join(dir, 'format.json'), `${JSON.stringify({ format: 1, writer: 'reportbo-emulator' })}\n`);
  // An older emulator wrote no checkpoint (decision 0111); this one's names the lengths before the rewrite.
  rmSync(join(dir, 'checkpoint.json'), { force: true });
  return bodies;
}

describe('packed bodies (decision 0134)', () => {
  it('send the same gzip bytes on every attempt, as body.gz and the HAR export give them', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    running.push(rec);
    const emu = await serve({ clock: 'manual', clockStart: '2026-04-27T10:00:00Z' });
    await admin(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'packed-key-0001', url: rec.url });
    const event = await admin<{ notifications: Array<{ id: string }> }>(emu, 'POST', '/events', {
      type: 'Issue',
    });
    const id = event.notifications[0]!.id;
    await admin(emu, 'GET', '/notifications?wait=settled');
    await admin(emu, 'POST', `/notifications/${id}/retry`);
    await rec.waitForRequests(2);
    const [first, second] = rec.requests as [Receiver['requests'][number], Receiver['requests'][number]];
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    expect(first.headers['content-length']).toBe(String(first.rawBody.length));

    const detail = await admin<{ body: unknown; headers: Record<string, string> }>(
      emu,
      'GET',
      `/notifications/${id}`,
    );
    expect(JSON.parse(gunzipSync(first.rawBody).toString('utf8'))).toEqual(detail.body);
    expect(detail.headers['Content-Length']).toBe(String(first.rawBody.length));
    expect((await bodyGz(emu, id)).equals(first.rawBody)).toBe(true);
    const har = await admin<{ log: { entries: Array<{ request: { _postDataGzipBase64: string } }> } }>(
      emu,
      'GET',
      `/notifications/export?format=har`,
    );
    for (const entry of har.log.entries)
      expect(Buffer.from(entry.request._postDataGzipBase64, 'base64').equals(first.rawBody)).toBe(true);
  });

  it('read a format 1 data dir (gzip bodies) back, send its bodies as they were, and mark it format 2', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    running.push(rec);
    const root = mkdtempSync(join(tmpdir(), 'reportbo-packed-'));
    dirs.push(root);
    const settings: SettingsInput = {
      dataDir: join(root, 'data'),
      clock: 'manual',
      clockStart: '2026-04-27T10:00:00Z',
    };
    let emu = await serve(settings);
    await admin(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'packed-key-0001', url: rec.url });
    const event = await admin<{ notifications: Array<{ id: string }> }>(emu, 'POST', '/events', {
      type: 'Issue',
    });
    const id = event.notifications[0]!.id;
    await admin(emu, 'GET', '/notifications?wait=settled');
    const before = await admin(emu, 'GET', `/notifications/${id}`);
    await emu.close();
    running.splice(running.indexOf(emu), 1);
    expect(asFormat1(settings.dataDir as string)).toBeGreaterThan(0);

    emu = await serve(settings);
    expect(await admin(emu, 'GET', `/notifications/${id}`)).toEqual(before);
    const sent = rec.requests[0]!.rawBody;
    expect((await bodyGz(emu, id)).equals(sent)).toBe(true);
    await admin(emu, 'POST', `/notifications/${id}/retry`);
    await rec.waitForRequests(2);
    expect(rec.requests[1]!.rawBody.equals(sent)).toBe(true);
    expect(JSON.parse(readFileSync(join(settings.dataDir as string, 'format.json'), 'utf8')).format).toBe(2);
  });
});

/**
 * The reference receiver (docker/sample-receiver/server.js) as a real process over real TLS, with a
 * certificate from the `certs` command and bodies from the `generate` command.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceiver } from '../src/index.js';
import { BIN } from './helpers/cli.js';
import { sampleReceiver } from './helpers/processes.js';

const run = promisify(execFile);

let dir: string;
let port: number;
let ca: string;
let bodies: Array<{ Reservation: { BookingNumber: string } }>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sample-receiver-'));
  await run(process.execPath, [BIN, 'certs', '--out', join(dir, 'certs'), '--host', 'localhost']);
  ca = await readFile(join(dir, 'certs/ca.pem'), 'utf8');
  const { stdout } = await run(process.execPath, [
    BIN,
    'generate',
    '--seed',
    '7',
    '--count',
    '2',
    '--at',
    '2026-04-27T10:00:00Z',
  ]);
  bodies = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  ({ port } = await sampleReceiver(join(dir, 'certs'), 'key-a, key-b', join(dir, 'received')));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** POSTs like the emulator does: gzip body, Bearer key, Content-Disposition filename. */
function post(
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', servername: 'localhost', port, ca, method: 'POST', path: '/reportbo', headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function delivery(body: unknown, filename: string, key = 'key-a') {
  return post(gzipSync(JSON.stringify(body)), {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    'content-encoding': 'gzip',
    'content-disposition': `attachment; filename=${filename}`,
  });
}

const nameOf = (b: (typeof bodies)[number]) => `20260427_100000Z-${b.Reservation.BookingNumber}.json`;

describe('the sample receiver', () => {
  it('acknowledges a valid notification with exactly 200 and stores it under its filename', async () => {
    const res = await delivery(bodies[0], nameOf(bodies[0]!));
    expect(res).toEqual({ status: 200, text: 'OK' });
    const stored = JSON.parse(await readFile(join(dir, 'received', nameOf(bodies[0]!)), 'utf8'));
    expect(stored).toEqual(bodies[0]);
  });

  it('accepts any of several comma-separated keys and refuses an unknown or missing Bearer with 401', async () => {
    expect((await delivery(bodies[1], nameOf(bodies[1]!), 'key-b')).status).toBe(200);
    expect((await delivery(bodies[1], nameOf(bodies[1]!), 'key-c')).status).toBe(401);
    const noAuth = await post(gzipSync(JSON.stringify(bodies[1])), {
      'content-encoding': 'gzip',
      'content-disposition': `attachment; filename=${nameOf(bodies[1]!)}`,
    });
    expect(noAuth.status).toBe(401);
  });

  it('refuses a body that is not gzip with 415 and one that is not JSON with 400', async () => {
    const plain = await post(JSON.stringify(bodies[0]), {
      authorization: 'Bearer key-a',
      'content-disposition': `attachment; filename=${nameOf(bodies[0]!)}`,
    });
    expect(plain.status).toBe(415);
    const notJson = await post(gzipSync('not json'), {
      authorization: 'Bearer key-a',
      'content-encoding': 'gzip',
      'content-disposition': 'attachment; filename=20260427_100000Z-X.json',
    });
    expect(notJson.status).toBe(400);
  });

  it('refuses a body the published schema rejects with 422 naming the field', async () => {
    const broken = structuredClone(bodies[0]) as { Reservation: Record<string, unknown> };
    delete broken.Reservation.BookingID;
    const res = await delivery(broken, '20260427_100000Z-BROKEN.json');
    expect(res.status).toBe(422);
    expect(res.text).toContain('/Reservation');
    expect(res.text).toContain('BookingID');
  });

  it('refuses a filename that could leave the storage directory with 400', async () => {
    expect((await delivery(bodies[0], '../escape.json')).status).toBe(400);
    expect((await readdir(dir)).includes('escape.json')).toBe(false);
  });

  it('stores a redelivery once, and a different body under a taken name with a number', async () => {
    const name = nameOf(bodies[0]!);
    expect((await delivery(bodies[0], name)).status).toBe(200);
    const other = await delivery(bodies[1], name);
    expect(other).toEqual({ status: 200, text: `OK (${name.replace('.json', '.2.json')})` });
    const files = (await readdir(join(dir, 'received'))).filter((f) =>
      f.startsWith(name.replace('.json', '')),
    );
    expect(files.sort()).toEqual([name, name.replace('.json', '.2.json')].sort());
  });

  it('shows the latest state of a booking at its probe: newest UpdateDate wins, the same second ranks Voided over Issued', async () => {
    type Body = {
      Reservation: { BookingID: number; BookingNumber: string; BookingStatus: string; UpdateDate: string };
    };
    const issue = structuredClone(bodies[1]) as unknown as Body;
    const id = issue.Reservation.BookingID;
    const voided = structuredClone(issue);
    voided.Reservation.BookingStatus = 'Voided';
    const name = nameOf(bodies[1]!);
    expect((await delivery(issue, name)).status).toBe(200);
    expect(await probe(`/bookings/${id}`)).toMatchObject({ status: 200, json: { BookingStatus: 'Issued' } });
    // Same UpdateDate, same filename: the Void is a new state, not a duplicate.
    expect((await delivery(voided, name)).status).toBe(200);
    // The Issue again, late: changes nothing.
    expect((await delivery(issue, name)).status).toBe(200);
    expect(await probe(`/bookings/${id}`)).toMatchObject({
      status: 200,
      json: { BookingID: id, BookingNumber: issue.Reservation.BookingNumber, BookingStatus: 'Voided' },
    });
    expect(await probe(`/booking-numbers/${issue.Reservation.BookingNumber}`)).toMatchObject({
      json: { BookingStatus: 'Voided' },
    });
    expect((await probe('/bookings/1')).status).toBe(404);
    expect((await probe(`/bookings/${id}`, 'key-c')).status).toBe(401);

    // A restart rebuilds the state from the stored files.
    const { port: port2 } = await sampleReceiver(join(dir, 'certs'), 'key-a', join(dir, 'received'));
    expect(await probe(`/bookings/${id}`, 'key-a', port2)).toMatchObject({
      json: { BookingStatus: 'Voided' },
    });
  });
});

describe('the sample receiver under verify --probe', () => {
  it('returns the probe content members, so accepts-maximal-body compares what it stored', async () => {
    const report = await verifyReceiver({
      receiver: `https://localhost:${port}/reportbo`,
      apiKey: 'key-a',
      caFile: join(dir, 'certs/ca.pem'),
      probe: `https://localhost:${port}/bookings/{BookingID}`,
      only: ['accepts-maximal-body'],
      seed: 9,
    });
    expect(report.cases[0]).toMatchObject({
      status: 'passed',
      reason: expect.stringMatching(/stored exactly as sent \(Pax, RatioAmount, RawDataLength compared\)/),
    });
  });
});

/** GET on the sample receiver's probe routes, with a Bearer key. */
function probe(path: string, key = 'key-a', at = port): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: at,
        ca,
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${key}` },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode!, json });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

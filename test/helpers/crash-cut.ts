import { once } from 'node:events';
import { cpSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { dataDirRoot, serveOnDataDir, stop } from './data-dir-emulators.js';
import { atFileEnd } from './file-hooks.js';

// What a crash cuts off, in process and in seconds (issue 38 §4, §5), shared by
// test/restart-crash-cut.test.ts and the mutation drill (test/drill/mutation-drill.drill.ts): the
// data dir's files are copied while an attempt of a redelivery batch is in flight, as a kill -9 at
// that instant leaves them (every record written to the OS; the copy's lock is dropped, as a dead
// process's is taken over), and an emulator started on the copy ends that attempt as
// `interrupted_by_crash` and the batch as interrupted: its repair runs on the changes the outbox's
// apply made of the records (attempt started, batch started). The kill -9 tests of the CLI
// (test/crash-*.test.ts) say the same of the real process.

const held: ServerResponse[] = [];
atFileEnd(() => {
  for (const res of held) res.socket?.destroy();
});

const serve = (dataDir: string) => serveOnDataDir(dataDir, { seed: 11, shutdownGraceMs: 0 });

const post = (url: string, body?: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Crashes mid-batch and restarts on what the crash left (`atRestart` runs just before); throws when it is not cut off. */
export async function crashCutRestart(atRestart: () => void = () => {}): Promise<void> {
  // The first attempt is answered 500; the batch's attempt is held, never answered.
  let requests = 0;
  let heldOne: () => void = () => {};
  const second = new Promise<void>((resolve) => {
    heldOne = resolve;
  });
  const receiver = createServer((req, res) => {
    req.resume();
    requests++;
    if (requests === 1) res.writeHead(500).end();
    else {
      held.push(res);
      heldOne();
    }
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const port = (receiver.address() as AddressInfo).port;
  const root = dataDirRoot('reportbo-crash-cut-');
  const dataDir = join(root, 'data');
  const emu = await serve(dataDir);
  const admin = `${emu.url}/__admin`;
  await post(`${admin}/credentials`, {
    id: 'c1',
    apiKey: 'key-000000000001',
    url: `http://127.0.0.1:${port}/hook`,
  }).then((r) => r.arrayBuffer());
  await post(`${admin}/events`, { type: 'Issue' }).then((r) => r.arrayBuffer());
  await fetch(`${admin}/notifications?wait=settled`).then((r) => r.arrayBuffer());
  // The clock moves past minute 55: the batch there retries the notification (the move waits for it).
  const batch = post(`${admin}/clock/advance`, { by: 'PT1H' }).catch(() => undefined);
  await second;

  const crashed = join(root, 'crashed');
  cpSync(dataDir, crashed, { recursive: true, filter: (src) => !src.endsWith('lock.json') });
  // The original stops (its attempt recorded as interrupted by the stop, grace 0); the copy is what counts.
  await stop(emu);
  for (const res of held) res.socket?.destroy();
  await batch;
  receiver.close();

  atRestart();
  const restarted = await serve(crashed);
  const listed = (await (await fetch(`${restarted.url}/__admin/notifications`)).json()) as {
    notifications: Array<{ id: string; state: string }>;
  };
  const n = listed.notifications[0]!;
  const detail = (await (await fetch(`${restarted.url}/__admin/notifications/${n.id}`)).json()) as {
    notification?: { attempts: Array<{ outcome: string; trigger: string }> };
    attempts?: Array<{ outcome: string; trigger: string }>;
  };
  const attempts = detail.notification?.attempts ?? detail.attempts ?? [];
  expect(attempts.map((a) => a.outcome)).toEqual(['http_status', 'interrupted_by_crash']);
  expect(n.state).toBe('pending');
  const { batches } = (await (await fetch(`${restarted.url}/__admin/redelivery/batches`)).json()) as {
    batches: Array<{ reason?: string; attempted: number }>;
  };
  expect(batches.at(-1)?.reason).toMatch(/^interrupted: the emulator stopped while this batch ran/);
  expect(batches.at(-1)?.attempted).toBe(1);
}

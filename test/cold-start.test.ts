import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers/cli.js';

const RECORDER = new URL('./helpers/record-modules.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'reportbo-cold-start-'));
const config = join(dir, 'config.json');
writeFileSync(
  config,
  JSON.stringify({
    users: [{ username: 'cold', password: 'pw', idWeb: 77, webDescription: 'Cold', versions: ['1.7'] }],
  }),
);
const children: ChildProcess[] = [];
let runs = 0;

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `serve` as a fresh process whose loaded modules are recorded; resolves once it logs its URL. */
async function serve(args: string[]): Promise<{ url: string; loaded: () => string[] }> {
  const record = join(dir, `modules-${++runs}.txt`);
  writeFileSync(record, '');
  const child = spawn(
    process.execPath,
    ['--import', RECORDER, BIN, 'serve', '--port', '0', '--config', config, ...args],
    { env: { ...process.env, RECORD_MODULES_FILE: record }, stdio: 'pipe' },
  );
  children.push(child);
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on (http:\/\/[\d.:[\]]+)/.exec(log);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${log}`)));
  });
  return { url, loaded: () => readFileSync(record, 'utf8').split('\n').filter(Boolean) };
}

async function token17(url: string): Promise<Response> {
  return fetch(`${url}/api/1.7/AuthService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'cold', Password: 'pw' }),
  });
}

/** Modules start-up must not load: each is loaded on first use of what needs it. */
const DEFERRED = [
  ['node-cron', /\/node_modules\/node-cron\//],
  ['yaml (the config file is JSON)', /\/node_modules\/yaml\//],
  ['the admin routes besides health', /\/dist\/admin\/(?!health\.js|guard\.js)/],
  ['the reservation lifecycle', /\/dist\/reservations\//],
  ['the delivery engine', /\/dist\/delivery\//],
  ['the generator', /\/dist\/generate\//],
  ['faker', /\/node_modules\/@faker-js\//],
  ['the notification contract', /\/dist\/contract\//],
  ['the scenario machinery', /\/dist\/scenarios\//],
  ['the verify kit', /\/dist\/verify\//],
] as const;

describe('serve start-up', () => {
  it('answers health and a 1.7 JSON GetAccessToken having loaded neither node-cron (manual clock) nor the admin API, generator, contract or scenarios', async () => {
    const { url, loaded } = await serve(['--clock', 'manual']);
    const health = await fetch(`${url}/__admin/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', clock: 'manual' });
    const res = await token17(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ Token: expect.stringMatching(/\S/), TransactionCode: null });

    const early = loaded();
    expect(early.some((u) => u.endsWith('/dist/main.js'))).toBe(true); // the recorder works
    for (const [what, pattern] of DEFERRED) {
      expect(
        early.filter((u) => pattern.test(u)),
        what,
      ).toEqual([]);
    }

    // First use loads them: an Issue event goes through the lifecycle, the generator and delivery.
    const issued = await fetch(`${url}/__admin/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'Issue' }),
    });
    expect(issued.status).toBe(202);
    expect(await issued.json()).toMatchObject({ reservations: [{ status: 'Issued' }] });
    const later = loaded();
    expect(later.some((u) => /\/dist\/generate\//.test(u))).toBe(true);
    expect(later.some((u) => /\/node_modules\/node-cron\//.test(u))).toBe(false);
    // The admin API is loaded now; the verify kit still is not (POST /__admin/verify imports it).
    // Its route table declares the kit's options schema and case ids (decision 0045): only those.
    const kit = later.filter((u) => /\/dist\/verify\//.test(u) && !/\/verify\/(options|types)\.js$/.test(u));
    expect(kit).toEqual([]);
  });

  it('loads node-cron for a real clock after start, and schedules batches with it', async () => {
    const { url, loaded } = await serve([]);
    expect((await token17(url)).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!loaded().some((u) => /\/node_modules\/node-cron\//.test(u)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(loaded().some((u) => /\/node_modules\/node-cron\//.test(u))).toBe(true);
    const clock = (await (await fetch(`${url}/__admin/clock`)).json()) as {
      mode: string;
      nextBatchAt: string;
    };
    expect(clock.mode).toBe('real');
    expect(clock.nextBatchAt).toMatch(/:55:00\.000Z$/);
  });

  it('answers an unknown admin path with the route_not_found problem, as before the admin API loaded', async () => {
    const { url } = await serve(['--clock', 'manual']);
    const res = await fetch(`${url}/__admin/no-such-route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'route_not_found' } });
    expect((await fetch(`${url}/__admin/health`)).status).toBe(200);
  });

  it('outside a server, uses the reservation store and the delivery engine once loadEmulatorServices() was awaited, and says so before', () => {
    // Plain Node on the built package, through the package entry as a user would.
    const script = `
      const { createEmulator, loadEmulatorServices } = await import(${JSON.stringify(`${ROOT}dist/index.js`)});
      const emulator = createEmulator({ clock: 'manual', logLevel: 'silent', seed: 3 });
      let early;
      try {
        emulator.reservations;
      } catch (err) {
        early = { code: err.code, message: err.message };
      }
      await loadEmulatorServices();
      const issued = emulator.reservations.apply({ type: 'Issue' });
      const routed = emulator.delivery.dispatch(issued.emit);
      let refused;
      try {
        await createEmulator({ logLevel: 'silent' }, {}, { credentials: [{ apiKey: 'k', url: 'http://x.example/' }] }).ready;
      } catch (err) {
        refused = err.code;
      }
      console.log(JSON.stringify({ early, status: issued.reservations[0].status, routedTo: routed.routedTo, refused }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      early: {
        code: 'internal_error',
        message:
          'The reservation store is loaded on first use and was used before it loaded: await loadEmulatorServices() first.',
      },
      status: 'Issued',
      routedTo: 0,
      refused: 'http_not_allowed',
    });
  });
});

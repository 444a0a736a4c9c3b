// `node bench/ab-builds.mjs <before-root> <after-root> [all|cold|generate|api]`: two builds of the
// emulator measured alternately, so both see the same load on a shared machine: cold start to the
// first 1.7 JSON token (11 runs each), `generate --count 20000` bodies/s (5 each), and wrk (-t2 -c50,
// 5 s, out of process) on 1.7 JSON GetAccessToken at --log-level info beside this checkout's bare Hono
// handler (3 each). A root is a built checkout; one for a commit:
//   git archive <commit> | tar -x -C <dir> && ln -s "$PWD/node_modules" <dir>/node_modules &&
//   (cd <dir> && npx tsc -p tsconfig.build.json)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const [before, after, which = 'all'] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node bench/ab-builds.mjs <before-root> <after-root> [all|cold|generate|api]');
  process.exit(2);
}
const ROOTS = { before, after };
const HONO = new URL('./peers/bare-hono.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tricks-ab-'));
const cfg = join(dir, 'cfg.json');
writeFileSync(
  cfg,
  JSON.stringify({
    users: [
      {
        username: 'bench',
        password: 'pw',
        idWeb: 1001,
        webDescription: 'Bench Agency',
        versions: ['1.6', '1.7'],
      },
    ],
  }),
);
const body = JSON.stringify({ Username: 'bench', Password: 'pw' });
const lua = join(dir, 'post.lua');
writeFileSync(
  lua,
  `wrk.method = "POST"\nwrk.body = '${body}'\nwrk.headers["Content-Type"] = "application/json; charset=utf-8"\n`,
);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `serve` of `root`; its log goes to a file (a pipe left undrained would stall a synchronous log). */
function startServe(root, extra = []) {
  const logFile = join(dir, `serve-${Math.random().toString(36).slice(2)}.log`);
  const fd = openSync(logFile, 'w');
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [join(root, 'bin/reportbo-emulator.js'), 'serve', '--port', '0', '--config', cfg, ...extra],
    { stdio: ['ignore', 'ignore', fd] },
  );
  closeSync(fd);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = (async () => {
    for (;;) {
      const m = /listening on (http:\/\/[\d.:]+)/.exec(readFileSync(logFile, 'utf8'));
      if (m) return m[1];
      if (exited) throw new Error(`serve exited: ${readFileSync(logFile, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 1));
    }
  })();
  return { child, url, t0 };
}

async function token(url) {
  const r = await fetch(`${url}/api/1.7/AuthService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body,
  });
  await r.text();
  return r.status;
}
async function coldStart(root) {
  const s = startServe(root);
  const url = await s.url;
  while ((await token(url).catch(() => 0)) !== 200) await new Promise((r) => setTimeout(r, 2));
  const ms = performance.now() - s.t0;
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.once('exit', r));
  return ms;
}
function generate(root) {
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [join(root, 'bin/reportbo-emulator.js'), 'generate', '--count', '20000', '--seed', '0'],
    { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 30 },
  );
  return 20000 / ((performance.now() - t0) / 1000);
}
function wrk(url, path) {
  const out = spawnSync('wrk', ['-t2', '-c50', '-d5s', '-s', lua, `${url}${path}`], {
    encoding: 'utf8',
  }).stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const non2xx = /Non-2xx/.test(out);
  return non2xx ? Number.NaN : rps;
}
async function api(kind) {
  let child, url;
  if (kind === 'hono') {
    child = spawn(process.execPath, [HONO, '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    url = await new Promise((resolve) => {
      let o = '';
      child.stdout.on('data', (c) => {
        o += c;
        const m = /listening on (http:\/\/[\d.:]+)/.exec(o);
        if (m) resolve(m[1]);
      });
    });
  } else {
    const s = startServe(ROOTS[kind], ['--log-level', 'info']);
    child = s.child;
    url = await s.url;
  }
  await token(url).catch(() => 0);
  spawnSync('wrk', ['-t2', '-c50', '-d1s', '-s', lua, `${url}/api/1.7/AuthService.json/GetAccessToken`]); // warm-up
  const rps = wrk(url, '/api/1.7/AuthService.json/GetAccessToken');
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return rps;
}

const res = {};
const add = (k, v) => {
  res[k] = [...(res[k] ?? []), v];
};
console.error(`load at start ${loadavg()[0].toFixed(2)}`);
if (which === 'all' || which === 'cold')
  for (let i = 0; i < 11; i++)
    for (const k of i % 2 ? ['after', 'before'] : ['before', 'after'])
      add(`cold ${k}`, await coldStart(ROOTS[k]));
if (which === 'all' || which === 'generate')
  for (let i = 0; i < 5; i++)
    for (const k of i % 2 ? ['after', 'before'] : ['before', 'after'])
      add(`generate ${k}`, generate(ROOTS[k]));
if (which === 'all' || which === 'api')
  for (let i = 0; i < 3; i++)
    for (const k of i % 2 ? ['hono', 'after', 'before'] : ['before', 'after', 'hono'])
      add(`api ${k}`, await api(k));
console.error(`load at end ${loadavg()[0].toFixed(2)}`);
for (const [k, v] of Object.entries(res))
  console.log(`${k}: median ${median(v).toFixed(1)} (${v.map((x) => x.toFixed(0)).join(', ')})`);
rmSync(dir, { recursive: true, force: true });

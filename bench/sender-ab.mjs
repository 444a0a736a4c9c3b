// `node bench/sender-ab.mjs <before-root> <after-root> [count] [rounds]`: the delivery sender of two
// builds (dist/delivery/sender.js) measured alternately, so both see the same load on a shared
// machine. Each round is a fresh process that POSTs `count` gzip notifications (16 at a time, one
// keep-alive pool) to a 200-answering receiver in its own process; the figure is that process's
// CPU (user + system from /proc/self/stat) per delivered notification, counted around the sends
// only. Medians per build. A root is a built checkout; one for a commit:
//   git archive <commit> | tar -x -C <dir> && ln -s "$PWD/node_modules" <dir>/node_modules &&
//   (cd <dir> && npx tsc -p tsconfig.build.json)
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const [before, after, countArg = '20000', roundsArg = '7'] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node bench/sender-ab.mjs <before-root> <after-root> [count] [rounds]');
  process.exit(2);
}
const RECEIVER = `
const { createServer } = require('node:http');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;
const SENDER = `
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const [root, url, count] = process.argv.slice(1);
const { HttpSender } = await import(root + '/dist/delivery/sender.js');
const cpu = () => {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10; // clock ticks (100/s) to ms
};
const body = gzipSync(JSON.stringify({ type: 'Issue', bookingId: 123456, payload: 'x'.repeat(400) }));
const headers = { 'User-Agent': 'Service-ReportBO', 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length) };
const sender = new HttpSender({ timeoutMs: 10_000, maxSockets: 16 });
for (let i = 0; i < 500; i++) await sender.send({ url, headers, body });
const c0 = cpu();
let next = 0, ok = 0;
await Promise.all(Array.from({ length: 16 }, async () => {
  while (next < Number(count)) { next++; if ((await sender.send({ url, headers, body })).statusCode === 200) ok++; }
}));
const c1 = cpu();
sender.close();
console.log(JSON.stringify({ ok, cpuUs: ((c1 - c0) * 1000) / ok }));
`;

const receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve) =>
  receiver.stdout.on('data', (d) => {
    const m = /listening (\d+)/.exec(String(d));
    if (m) resolve(m[1]);
  }),
);
const url = `http://127.0.0.1:${port}/hook`;
const figures = { before: [], after: [] };
try {
  for (let round = 0; round < Number(roundsArg); round++) {
    for (const [name, root] of round % 2 === 0 ? [['before', before], ['after', after]] : [['after', after], ['before', before]]) {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', SENDER, join(root), url, countArg], {
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(`${name}: ${run.stderr}`);
      const { ok, cpuUs } = JSON.parse(run.stdout.trim().split('\n').at(-1));
      if (ok !== Number(countArg)) throw new Error(`${name}: ${ok} of ${countArg} delivered`);
      figures[name].push(cpuUs);
      console.log(`round ${round + 1} ${name}: ${cpuUs.toFixed(1)} µs CPU per delivered notification (load ${loadavg()[0].toFixed(1)})`);
    }
  }
} finally {
  receiver.kill();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const b = median(figures.before);
const a = median(figures.after);
console.log(`median before ${b.toFixed(1)} µs, after ${a.toFixed(1)} µs: ${(((a - b) / b) * 100).toFixed(1)}%`);

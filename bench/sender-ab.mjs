// `node bench/sender-ab.mjs <before-root> <after-root> [sends] [rounds]`: the delivery sender of two
// builds (dist/delivery/sender.js) measured in one process, in alternating rounds of `sends` POSTs
// each (16 at a time, one keep-alive pool per build) of a gzip notification to a 200-answering
// receiver in its own process, so both builds see the same machine load, warm-up and heap. The
// figure is this process's CPU (user + system, `process.cpuUsage`, i.e. /proc utime + stime) per
// delivered notification, median of the rounds per build. A root is a built checkout; one for a
// commit:
//   git archive <commit> | tar -x -C <dir> && ln -s "$PWD/node_modules" <dir>/node_modules &&
//   (cd <dir> && npx tsc -p tsconfig.build.json)
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const [before, after, sendsArg = '3000', roundsArg = '20'] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node bench/sender-ab.mjs <before-root> <after-root> [sends] [rounds]');
  process.exit(2);
}
const SENDS = Number(sendsArg);
const ROUNDS = Number(roundsArg);
const RECEIVER = `
const { createServer } = require('node:http');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;

const receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((done) =>
  receiver.stdout.on('data', (d) => {
    const m = /listening (\d+)/.exec(String(d));
    if (m) done(m[1]);
  }),
);
const url = `http://127.0.0.1:${port}/hook`;
const body = gzipSync(JSON.stringify({ type: 'Issue', bookingId: 123456, payload: 'x'.repeat(400) }));
const headers = {
  'User-Agent': 'Service-ReportBO',
  'Content-Type': 'application/json',
  'Content-Encoding': 'gzip',
  'Content-Length': String(body.length),
};
const builds = {};
for (const [name, root] of [
  ['before', before],
  ['after', after],
]) {
  const { HttpSender } = await import(pathToFileURL(resolve(root, 'dist/delivery/sender.js')).href);
  builds[name] = { sender: new HttpSender({ timeoutMs: 10_000, maxSockets: 16 }), figures: [] };
}

/** Sends `count` notifications through `sender`, 16 at a time; answers the CPU µs per 200. */
async function round(sender, count) {
  let next = 0;
  let ok = 0;
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        next++;
        if ((await sender.send({ url, headers, body })).statusCode === 200) ok++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  if (ok !== count) throw new Error(`${ok} of ${count} delivered`);
  return (cpu.user + cpu.system) / ok;
}

try {
  for (const b of Object.values(builds)) await round(b.sender, SENDS); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    const line = [];
    for (const name of order) {
      const us = await round(builds[name].sender, SENDS);
      builds[name].figures.push(us);
      line.push(`${name} ${us.toFixed(1)} µs`);
    }
    console.log(`round ${r + 1}: ${line.join(', ')} (load ${loadavg()[0].toFixed(1)})`);
  }
} finally {
  for (const b of Object.values(builds)) b.sender.close();
  receiver.kill();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const b = median(builds.before.figures);
const a = median(builds.after.figures);
console.log(
  `CPU per delivered notification, median of ${ROUNDS} rounds: before ${b.toFixed(1)} µs, after ${a.toFixed(1)} µs (${(((a - b) / b) * 100).toFixed(1)}%)`,
);

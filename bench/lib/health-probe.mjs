/**
 * The health prober, a process of its own (so neither the emulator's nor the load's event loop
 * delays its clock): `GET <url>` every `everyMs` over a fresh connection each time, as a container
 * health check does, each call's wall latency in ms kept. On any IPC message it stops, waits for the
 * calls still out, and answers `{ latencies, failed }`. Usage (forked): health-probe.mjs <url> <everyMs>
 */
import http from 'node:http';

const [url, everyMs = '50'] = process.argv.slice(2);
const latencies = [];
const out = new Set();
let failed = 0;
const probe = () => {
  const t0 = performance.now();
  const call = new Promise((resolve) => {
    http
      .get(url, { agent: false, timeout: 600_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - t0);
          else failed++;
          resolve();
        });
      })
      .on('error', () => {
        failed++;
        resolve();
      });
  });
  out.add(call);
  void call.then(() => out.delete(call));
};
probe();
const timer = setInterval(probe, Number(everyMs));
process.once('message', async () => {
  clearInterval(timer);
  await Promise.all(out);
  process.send({ latencies, failed }, () => process.exit(0));
});

/**
 * Worker-thread side of the delivery bench: a src/receivers receiver that fails a seeded 30% of
 * requests, on its own thread so the emulator keeps the main one. Answers `stats` messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { behave, startReceiver } from '../../dist/receivers/index.js';

const { failureRate, seed } = workerData as { failureRate: number; seed: number };
// mulberry32: a small seeded PRNG so runs are comparable.
let state = seed;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
let requests = 0;
let answered200 = 0;
const receiver = await startReceiver({
  keepBodies: false,
  script: () => {
    requests++;
    if (random() < failureRate) return behave.status(500);
    answered200++;
    return behave.status(200);
  },
});
parentPort!.on('message', async (message: string) => {
  if (receiver.requests.length > 1_000) receiver.clear();
  if (message === 'stats') parentPort!.postMessage({ requests, answered200 });
  if (message === 'close') {
    await receiver.close();
    parentPort!.close();
  }
});
parentPort!.postMessage({ url: receiver.url });

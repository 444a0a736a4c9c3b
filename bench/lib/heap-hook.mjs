/**
 * Preloaded into the emulator by the pending-memory suite (`node --expose-gc --import
 * bench/lib/heap-hook.mjs …`), never by the product: on SIGUSR2 it runs two full garbage collections,
 * reads `process.memoryUsage()`, with `BENCH_HEAP_SNAPSHOT=1` writes a heap snapshot to
 * `$BENCH_HEAP_OUT.<n>.heapsnapshot`, then writes the usage as JSON to `$BENCH_HEAP_OUT.<n>.json`
 * (n counts the signals from 1). The JSON file appears last, so the suite waits for it.
 */
import { renameSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const out = process.env.BENCH_HEAP_OUT;
if (out && typeof globalThis.gc === 'function') {
  let n = 0;
  process.on('SIGUSR2', () => {
    n++;
    globalThis.gc();
    globalThis.gc();
    // Read before the snapshot, which grows the process while it writes.
    const usage = process.memoryUsage();
    if (process.env.BENCH_HEAP_SNAPSHOT === '1') v8.writeHeapSnapshot(`${out}.${n}.heapsnapshot`);
    writeFileSync(`${out}.${n}.tmp`, JSON.stringify(usage));
    renameSync(`${out}.${n}.tmp`, `${out}.${n}.json`);
  });
}

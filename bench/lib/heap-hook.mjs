/**
 * Preloaded into the emulator by the pending-memory suite (`node --expose-gc --import
 * bench/lib/heap-hook.mjs …`) and by the soak (`BENCH_HEAP_GC=0`: no collection, the memory as it is),
 * never by the product: on SIGUSR2 it runs two full garbage collections, reads `process.memoryUsage()`, with `BENCH_HEAP_SNAPSHOT=1` writes a heap snapshot to
 * `$BENCH_HEAP_OUT.<n>.heapsnapshot`, then writes the usage as JSON to `$BENCH_HEAP_OUT.<n>.json`
 * (n counts the signals from 1). The JSON file appears last, so the suite waits for it.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

/**
 * Resident bytes by kind of mapping from /proc/self/smaps: `brkHeap` (glibc's main malloc arena),
 * `anon` (every other anonymous mapping: V8's heap pages, other malloc arenas, large mallocs),
 * `fileBacked` (code and data of node and its libraries). Zero where /proc is missing.
 */
function residentByKind() {
  const kinds = { brkHeap: 0, anon: 0, fileBacked: 0 };
  let text;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return kinds;
  }
  let kind = 'anon';
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      kind = name === '[heap]' ? 'brkHeap' : name === '' || name.startsWith('[') ? 'anon' : 'fileBacked';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] += Number(rss[1]) * 1024;
  }
  return kinds;
}

const out = process.env.BENCH_HEAP_OUT;
const collect = process.env.BENCH_HEAP_GC !== '0';
if (out && (!collect || typeof globalThis.gc === 'function')) {
  let n = 0;
  process.on('SIGUSR2', () => {
    n++;
    if (collect) {
      globalThis.gc();
      globalThis.gc();
    }
    // Read before the snapshot, which grows the process while it writes.
    const spaces = Object.fromEntries(
      v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]),
    );
    const usage = { ...process.memoryUsage(), ...residentByKind(), spaces };
    if (process.env.BENCH_HEAP_SNAPSHOT === '1') v8.writeHeapSnapshot(`${out}.${n}.heapsnapshot`);
    writeFileSync(`${out}.${n}.tmp`, JSON.stringify(usage));
    renameSync(`${out}.${n}.tmp`, `${out}.${n}.json`);
  });
}

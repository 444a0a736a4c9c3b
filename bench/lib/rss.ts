/** Resident memory of any process (Node or JVM) from /proc, and a sampler for its peak. */
import { readFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Current RSS in MiB (undefined when the process is gone or /proc is unavailable). */
export function rssMiB(pid: number): number | undefined {
  return statusField(pid, 'VmRSS');
}

/** Peak RSS (high-water mark) in MiB since the process started. */
export function peakRssMiB(pid: number): number | undefined {
  return statusField(pid, 'VmHWM');
}

/** Samples RSS every `intervalMs` until stopped; answers the highest sample. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = rssMiB(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid) ?? 0);
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid) ?? 0);
    },
  };
}

/**
 * CPU time (user + system) a process has used so far, in milliseconds, from /proc/<pid>/stat
 * (utime and stime, in clock ticks of 1/100 s on Linux); undefined when unavailable.
 */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ": state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of proc(5)
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What bench/lib/heap-hook.mjs writes on SIGUSR2, in bytes: `process.memoryUsage()`, the resident
 * memory by kind of mapping (/proc/self/smaps) and V8's spaces.
 */
export interface HeapHookReading {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Resident bytes of glibc's main malloc arena (`[heap]` in /proc/self/smaps). */
  brkHeap: number;
  /** Resident bytes of the other anonymous mappings (V8's heap pages, other arenas, large mallocs). */
  anon: number;
  fileBacked: number;
  /** V8's spaces by name (`old_space`, `new_space`, …): committed and used bytes. */
  spaces: Record<string, { size: number; used: number }>;
}

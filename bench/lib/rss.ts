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

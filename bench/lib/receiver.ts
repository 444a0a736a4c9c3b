/** Starts and drives bench/lib/receiver-process.ts (a 200-answering loopback receiver in its own process). */
import { join } from 'node:path';
import { json } from './http.js';
import { type Proc, ROOT, spawnProc, waitFor } from './proc.js';

/** A running receiver. Times are wall-clock epoch milliseconds with sub-millisecond precision. */
export interface Receiver {
  url: string;
  proc: Proc;
  /** Resolves once `count` notifications arrived in all (since the last reset). */
  wait(
    count: number,
    timeoutMs?: number,
  ): Promise<{ reached: boolean; count: number; first: number; last: number }>;
  arrivals(): Promise<{ times: number[]; names: string[]; bytes: number; refused: number }>;
  reset(): Promise<void>;
  /** Answers `code` to notifications from now on (only 200-answered ones count as arrivals). */
  answer(code: number): Promise<void>;
  stop(): Promise<void>;
}

/** Spawns the receiver on `port` (0: any free port) and waits until it listens. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const proc = spawnProc('receiver', process.execPath, [
    '--import',
    'tsx',
    join(ROOT, 'bench', 'lib', 'receiver-process.ts'),
    String(port),
  ]);
  const url = await waitFor(
    'receiver: listening line',
    () => /listening on (http:\/\/\S+)/.exec(proc.log())?.[1],
    { timeoutMs: 20_000, intervalMs: 10, proc },
  );
  return {
    url,
    proc,
    wait: (count, timeoutMs = 120_000) =>
      json(`${url}/__bench/wait?count=${count}&timeoutMs=${timeoutMs}`, { timeoutMs: timeoutMs + 5_000 }),
    arrivals: () => json(`${url}/__bench/arrivals`, { timeoutMs: 60_000 }),
    reset: async () => {
      await json(`${url}/__bench/reset`, { method: 'POST', body: {} });
    },
    answer: async (code) => {
      await json(`${url}/__bench/status?code=${code}`, { method: 'POST', body: {} });
    },
    stop: () => proc.stop(),
  };
}

/**
 * Load runs with autocannon: one run answers req/s and latency percentiles; `alternate` runs every
 * target once per round, rotating the order each round, so slow drift of a shared machine (other
 * jobs, thermal limits) spreads over all targets instead of biasing the one measured last.
 */
import autocannon from 'autocannon';

/** A request the load generator repeats. */
export interface LoadRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One run's figures; `rps` counts only 2xx answers. */
export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  errors: number;
  non2xx: number;
}

/** One autocannon run with `connections` keep-alive connections for `durationSec`. */
export async function runLoad(
  req: LoadRequest,
  { connections, durationSec }: { connections: number; durationSec: number },
): Promise<LoadResult> {
  const result = await autocannon({
    url: req.url,
    method: req.method ?? 'POST',
    ...(req.headers ? { headers: req.headers } : {}),
    ...(req.body !== undefined ? { body: req.body } : {}),
    connections,
    pipelining: 1,
    duration: durationSec,
    timeout: 10,
  });
  const ok = result['2xx'];
  return {
    rps: ok / (result.duration || durationSec),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: ok + result.non2xx,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * Runs `measure` for every target in `rounds` rounds, rotating the order each round; answers the
 * results per target key, in round order.
 */
export async function alternate<T extends { key: string }, R>(
  targets: readonly T[],
  rounds: number,
  measure: (target: T, round: number) => Promise<R>,
): Promise<Map<string, R[]>> {
  const results = new Map<string, R[]>(targets.map((t) => [t.key, []]));
  for (let round = 0; round < rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const target of order) results.get(target.key)!.push(await measure(target, round));
  }
  return results;
}

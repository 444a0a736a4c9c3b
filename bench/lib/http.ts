/** A small HTTP client on node:http for probes and admin calls (no dependency, no connection reuse by default). */
import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request; rejects on a socket error (e.g. ECONNREFUSED) or after `timeoutMs`. */
export function request(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    timeoutMs = 10_000,
    agent = false,
  }: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
    agent?: http.Agent | false;
  } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** JSON request and answer; throws with the body when the status is not the expected one. */
export async function json<T = unknown>(
  url: string,
  options: {
    method?: string;
    body?: unknown;
    expect?: number[];
    timeoutMs?: number;
    agent?: http.Agent;
  } = {},
): Promise<T> {
  const answer = await request(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
  });
  const expect = options.expect ?? [200, 201, 202, 204];
  if (!expect.includes(answer.status)) {
    throw new Error(`${options.method ?? 'GET'} ${url}: HTTP ${answer.status}: ${answer.body.slice(0, 500)}`);
  }
  return (answer.body ? JSON.parse(answer.body) : undefined) as T;
}

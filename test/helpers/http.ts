/**
 * HTTP for the helpers that make thousands of calls: the restart property's ~17,000 (its writes and
 * every state GET, test/helpers/restart-property.ts and admin-state.ts) and the journal's fill of
 * test/persistence-settings.test.ts. node:http on kept-alive connections costs the test's process
 * about 40% less CPU than fetch for the same sequences (decision 0267); on the wire they are the
 * same requests. GetAccessToken and the admin API answer without a Content-Encoding, so the body is
 * what fetch would give.
 */
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true });

/** A call's answer: its status, Content-Type and body. */
export interface HttpAnswer {
  status: number;
  type: string;
  body: Buffer;
}

/** One call to `url` (http: only); `body` is sent as given, with its Content-Length. */
export function http(
  url: string | URL,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
    const req = request(url, { method: init.method ?? 'GET', agent, headers });
    req.once('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('error', reject);
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.end(init.body);
  });
}

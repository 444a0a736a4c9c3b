import { request } from 'node:http';

/** An answer read off a raw HTTP exchange. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** One buffer is sent with Content-Length; several are sent chunked, one write each. */
  body?: Buffer | Buffer[];
}

/**
 * Sends a request with node:http so hostile bodies (chunked, invalid UTF-8, declared sizes) go out
 * exactly as given, and resolves with the first answer even if the server closes mid-upload.
 */
export function rawRequest(url: string, req: RawRequest = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks = req.body === undefined ? [] : Array.isArray(req.body) ? req.body : [req.body];
    const chunked = Array.isArray(req.body);
    const headers: Record<string, string> = { ...req.headers };
    if (!chunked && req.body !== undefined) headers['content-length'] = String((req.body as Buffer).length);
    let answered = false;
    const r = request(url, { method: req.method ?? 'POST', headers, agent: false }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = (i: number) => {
      if (answered || r.destroyed) return;
      if (i >= chunks.length) {
        r.end();
        return;
      }
      const ok = r.write(chunks[i] as Buffer);
      if (ok) setImmediate(() => pump(i + 1));
      else r.once('drain', () => pump(i + 1));
    };
    pump(0);
  });
}

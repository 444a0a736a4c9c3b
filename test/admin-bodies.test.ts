import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';

interface Answer {
  status: number;
  text: string;
}

/** POSTs `bytes` to `url` in chunks, keeping the request open after them unless `end`. */
function post(
  url: string,
  bytes: Buffer,
  end: boolean,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text });
        req.destroy();
      });
    });
    req.on('error', (err) => reject(err));
    for (let i = 0; i < bytes.length; i += 1 << 20) req.write(bytes.subarray(i, i + (1 << 20)));
    if (end) req.end();
  });
}

describe('admin request bodies are bounded while they are read (issue 31 §1)', () => {
  it('a body past 10 MiB is a 413 naming the limit, answered before the upload ends; the server keeps answering', async () => {
    const emu = await deliveryEmulator();
    const big = Buffer.alloc(11 * 1024 * 1024, 0x20);
    // Chunked and never ended: only a reader that counts as it reads can answer.
    const open = await post(`${emu.url}/__admin/events`, big, false);
    expect(open.status).toBe(413);
    expect(JSON.parse(open.text).error).toMatchObject({ code: 'body_too_large' });
    expect(open.text).toContain('10485760 bytes');
    const declared = await post(`${emu.url}/__admin/users`, Buffer.from('{}'), false, {
      'content-length': String(11 * 1024 * 1024),
    });
    expect(declared.status).toBe(413);
    expect((await emu.admin('GET', '/health')).status).toBe(200);
  });

  it('overrides nested 10,000 deep are a 400 naming the path, not a stack overflow', async () => {
    const emu = await deliveryEmulator();
    const deep = `{"type":"Issue","overrides":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const answer = await post(`${emu.url}/__admin/events`, Buffer.from(deep), true);
    expect(answer.status, answer.text).toBe(400);
    const error = JSON.parse(answer.text).error;
    expect(error.code).toBe('too_deep');
    expect(error.details.path).toMatch(/^overrides\.a\.a\.a/);
    expect(error.message).toContain('64 levels');
  });

  it('a body that is not valid UTF-8 is refused with 400, never stored lossily', async () => {
    const emu = await deliveryEmulator();
    const body = Buffer.concat([
      Buffer.from('{"username":"al'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('ice","password":"p","idWeb":1,"webDescription":"w","versions":["1.7"]}'),
    ]);
    const answer = await post(`${emu.url}/__admin/users`, body, true);
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text).error.code).toBe('invalid_utf8');
    const users = await emu.admin<{ users: unknown[] }>('GET', '/users');
    expect(JSON.stringify(users.body)).not.toContain('\ufffd');
  });
});

describe('dashboard files are looked up among its own names only (issue 31 §1)', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'GET /__admin/ui/%s is a 404 that names no install path',
    async (name) => {
      const emu = await deliveryEmulator();
      const res = await fetch(`${emu.url}/__admin/ui/${name}`);
      const text = await res.text();
      expect(res.status, text).toBe(404);
      expect(JSON.parse(text).error.code).toBe('ui_file_not_found');
      expect(text).not.toContain(process.cwd());
    },
  );
});

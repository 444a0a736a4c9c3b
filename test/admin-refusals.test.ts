import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { serveCli } from './helpers/processes.js';
import { openStream } from './helpers/stream.js';

/** One request with exactly these headers (fetch would add its own Sec-Fetch-Mode and refuse Host). */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
};

describe('guard refusals are visible in the live stream and the log (issue 31 §5)', () => {
  it('streams and logs 401, 403 (origin, host, cross-site) and 415, each with a line of its own in a flood too', async () => {
    const { url, started: p } = await serveCli([
      '--clock',
      'manual',
      '--admin-token',
      'secret',
      '--log-format',
      'json',
    ]);
    const stream = await openStream(`${url}/__admin/stream?token=secret`);
    expect(stream.res.status).toBe(200);
    const refused = () => stream.events.map((e) => e.data).filter((d) => d.kind === 'refused');
    const auth = { authorization: 'Bearer secret' };
    const calls: Array<[Record<string, string>, string, number, string]> = [
      [{}, 'GET', 401, 'admin_token_missing'],
      [{ authorization: 'Bearer wrong' }, 'GET', 401, 'admin_token_wrong'],
      [{ ...auth, origin: 'https://evil.example' }, 'GET', 403, 'admin_origin_refused'],
      [{ ...auth, host: 'evil.example' }, 'GET', 403, 'admin_host_not_allowed'],
      [
        { ...auth, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
        'GET',
        403,
        'admin_cross_site_refused',
      ],
      [{ ...auth, 'content-type': 'text/plain' }, 'POST', 415, 'admin_content_type_refused'],
    ];
    for (const [headers, method, status, code] of calls) {
      const res = await raw(
        `${url}/__admin/credentials`,
        method,
        headers,
        method === 'POST' ? '{}' : undefined,
      );
      expect(res.status, res.text).toBe(status);
      expect((JSON.parse(res.text) as { error: { code: string } }).error.code).toBe(code);
    }
    await until(() => refused().length >= calls.length);
    expect(refused().map((e) => [e.status, e.code])).toEqual(
      calls.map(([, , status, code]) => [status, code]),
    );
    for (const [, , , code] of calls) expect(p.output()).toMatch(new RegExp(`admin call refused: .*${code}`));

    // A flood: every refusal reaches the stream, and the log gives each its own line, past the
    // budget of lines a second too: only successes are condensed (decision 0210).
    const flood = 60;
    const before = p.output().length;
    await Promise.all(
      Array.from({ length: flood }, () =>
        fetch(`${url}/__admin/credentials`, { headers: { origin: 'https://evil.example', ...auth } }).then(
          (r) => r.text(),
        ),
      ),
    );
    await until(() => refused().length >= calls.length + flood);
    const lines = (logged: string) =>
      (logged.match(/admin call refused: GET \/__admin\/credentials → 403 admin_origin_refused/g) ?? [])
        .length;
    await until(() => lines(p.output().slice(before)) >= flood);
    const logged = p.output().slice(before);
    expect(lines(logged)).toBe(flood);
    expect(logged).not.toMatch(/more admin calls? refused/);
    stream.close();
    p.child.kill('SIGTERM');
    expect(await p.exited()).toBe(0);
  });

  it('a top-level navigation from another site still opens the dashboard page', async () => {
    const { url, started: p } = await serveCli(['--clock', 'manual']);
    const navigate = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
    expect((await raw(`${url}/__admin/ui`, 'GET', navigate)).status).toBe(200);
    expect((await raw(`${url}/__admin/notifications`, 'GET', navigate)).status).toBe(403);
    const noCors = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' };
    expect((await raw(`${url}/__admin/ui/dashboard.js`, 'GET', noCors)).status).toBe(403);
    p.child.kill('SIGTERM');
    expect(await p.exited()).toBe(0);
  });
});

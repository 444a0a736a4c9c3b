/**
 * The delivery inspector's admin routes: credentials and users edited in place, the filtered
 * notifications exported as HAR 1.2 (checked against a schema written from the HAR 1.2 text) and as
 * NDJSON, delivery figures per credential, the receiver's response headers on every attempt, and a
 * GetAccessToken call kept with its request and answer as they were.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';
import { HAR_SCHEMA } from './helpers/har-schema.js';
import { behave, receiver } from './helpers/receiver.js';

interface Problem {
  error: { code: string; message: string };
}

describe('PUT /__admin/credentials/:id and PUT /__admin/users/:username', () => {
  it('replaces a credential in place, validated as POST is, and answers the same problems', async () => {
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'a', apiKey: 'k1', url: 'http://127.0.0.1:9/a' });
    await emu.credential({ id: 'b', apiKey: 'k2', url: 'http://127.0.0.1:9/b' });
    const changed = await emu.admin('PUT', '/credentials/a', {
      apiKey: 'k3',
      url: 'http://127.0.0.1:9/a2',
      filters: { pcc: ['AAA1'] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: 'a',
      apiKey: 'k3',
      url: 'http://127.0.0.1:9/a2',
      filters: { pcc: ['AAA1'] },
    });
    const listed = await emu.admin<{ credentials: Array<{ id: string; apiKey: string }> }>(
      'GET',
      '/credentials',
    );
    expect(listed.body.credentials.map((c) => [c.id, c.apiKey])).toEqual([
      ['a', 'k3'],
      ['b', 'k2'],
    ]); // same place in the routing order

    const bad = { apiKey: 'k', url: 'ftp://x/' };
    const put = await emu.admin<Problem>('PUT', '/credentials/a', bad);
    const post = await emu.admin<Problem>('POST', '/credentials', { id: 'c', ...bad });
    expect(put.status).toBe(400);
    expect(put.body.error).toEqual(post.body.error);
    expect(
      (await emu.admin<Problem>('PUT', '/credentials/nope', { apiKey: 'k', url: 'http://127.0.0.1:9/' }))
        .status,
    ).toBe(404);
    const renamed = await emu.admin<Problem>('PUT', '/credentials/a', {
      id: 'z',
      apiKey: 'k',
      url: 'http://127.0.0.1:9/',
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error.message).toMatch(/id "z" is not the id in the path \("a"\)/);
  });

  it('replaces a user; a new password is the one GetAccessToken takes', async () => {
    const emu = await deliveryEmulator();
    const user = { username: 'alice', password: 'one', idWeb: 1, webDescription: 'A', versions: ['1.7'] };
    expect((await emu.admin('POST', '/users', user)).status).toBe(201);
    const changed = await emu.admin('PUT', '/users/alice', { ...user, password: 'two', idWeb: 2 });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ username: 'alice', idWeb: 2, webDescription: 'A', versions: ['1.7'] });
    const token = async (Password: string) =>
      (await (
        await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Username: 'alice', Password }),
        })
      ).json()) as { TransactionCode: string | null; IDWeb: number | null };
    expect((await token('one')).TransactionCode).toBe('1200');
    expect(await token('two')).toMatchObject({ TransactionCode: null, IDWeb: 2 });
    const missing = await emu.admin<Problem>('PUT', '/users/alice', { username: 'alice' });
    expect(missing.status).toBe(400);
    expect((await emu.admin<Problem>('PUT', '/users/bob', user)).status).toBe(404);
  });
});

describe('attempts keep the receiver answer', () => {
  it('records the response headers (lower-case) beside the first 4 KiB of the body', async () => {
    const r = await receiver({
      defaultBehaviour: {
        kind: 'status',
        status: 503,
        body: 'busy',
        headers: { 'Retry-After': '120', 'X-Trace': 't-1' },
      },
    });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'main', apiKey: 'k', url: r.url });
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    const [attempt] = (await emu.notification(id)).attempts;
    expect(attempt!.responseBody).toBe('busy');
    expect(attempt!.responseHeaders).toMatchObject({
      'retry-after': '120',
      'x-trace': 't-1',
    });
  });
});

describe('GET /__admin/notifications filters and GET /__admin/notifications/export', () => {
  async function twoCredentials() {
    const good = await receiver();
    const bad = await receiver({ defaultBehaviour: behave.status(500, 'oops') });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'good', apiKey: 'k-good', url: `${good.url}/hook?tenant=7` });
    await emu.credential({ id: 'bad', apiKey: 'k-bad', url: bad.url });
    const first = await emu.event({ type: 'Issue' });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.event({ type: 'Void', bookingId: first.reservations[0]!.bookingId });
    await emu.settle();
    return { emu, first };
  }
  const ids = (body: { notifications: Array<{ id: string }> }) => body.notifications.map((n) => n.id);

  it('finds notifications by text inside the body, BookingStatus, status class, attempt count and credential', async () => {
    const { emu, first } = await twoCredentials();
    const all = await emu.admin<{ notifications: Array<{ id: string }> }>('GET', '/notifications');
    expect(all.body.notifications).toHaveLength(6);
    // A passenger's last name is only in the body.
    const body = (await emu.notification('n-000001')).body as { Pax: Array<{ LastName: string }> };
    const lastName = body.Pax[0]!.LastName;
    const byName = await emu.admin<{ notifications: Array<{ id: string; bookingNumber: string }> }>(
      'GET',
      `/notifications?q=${encodeURIComponent(lastName.toLowerCase())}`,
    );
    expect(ids(byName.body)).toContain('n-000001');
    const byNumber = await emu.admin<{ notifications: Array<{ bookingNumber: string }> }>(
      'GET',
      `/notifications?q=${first.reservations[0]!.bookingNumber}`,
    );
    expect(new Set(byNumber.body.notifications.map((n) => n.bookingNumber))).toEqual(
      new Set([first.reservations[0]!.bookingNumber]),
    );
    expect(byNumber.body.notifications).toHaveLength(4); // Issue and Void, two credentials each
    const voided = await emu.admin<{ notifications: Array<{ id: string }> }>(
      'GET',
      '/notifications?bookingStatus=Voided',
    );
    expect(ids(voided.body)).toEqual(['n-000005', 'n-000006']);
    const failing = await emu.admin<{ notifications: Array<{ credentialId: string }> }>(
      'GET',
      '/notifications?statusClass=5xx&credentialId=bad',
    );
    expect(failing.body.notifications.map((n) => n.credentialId)).toEqual(['bad', 'bad', 'bad']);
    expect(
      (
        await emu.admin<{ notifications: unknown[] }>(
          'GET',
          '/notifications?statusClass=2xx&credentialId=bad',
        )
      ).body.notifications,
    ).toEqual([]);
    await emu.advance({ to: 'next-batch' });
    const twice = await emu.admin<{ notifications: Array<{ id: string }> }>(
      'GET',
      '/notifications?attempts=2',
    );
    expect(ids(twice.body)).toEqual(['n-000002', 'n-000004', 'n-000006']);
    const wrong = await emu.admin<Problem>('GET', '/notifications?statusClass=6xx');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(
      'statusClass: "6xx" is not one of 2xx, 3xx, 4xx, 5xx, network, none.',
    );
    expect((await emu.admin<Problem>('GET', '/notifications?attempts=9')).status).toBe(400);
  });

  it('exports the filtered notifications as HAR 1.2, as sent and with the answers, valid against the HAR 1.2 schema', async () => {
    const { emu } = await twoCredentials();
    await emu.advance({ to: 'next-batch' });
    const res = await fetch(`${emu.url}/__admin/notifications/export?format=har&credentialId=bad`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename=reportbo-notifications-20260427T105500Z\.har$/,
    );
    const har = (await res.json()) as {
      log: {
        version: string;
        creator: { name: string };
        entries: Array<{
          request: {
            url: string;
            headers: Array<{ name: string; value: string }>;
            postData: { text: string };
            bodySize: number;
            queryString: unknown[];
            _postDataGzipBase64: string;
          };
          startedDateTime: string;
          response: {
            status: number;
            statusText: string;
            content: { text: string };
            headers: Array<{ name: string; value: string }>;
          };
          _notificationId: string;
          _attempt: number;
        }>;
      };
    };
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    const valid = ajv.validate(HAR_SCHEMA, har);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('reportbo-emulator');
    // 3 notifications of the bad credential, two attempts each (the first and the batch), in the order
    // the attempts started: the three first attempts, then the batch's. Attempts that run side by
    // side (the batch's) start in whatever order their bodies were read back, so only the order of
    // the two groups is fixed.
    const pairs = har.log.entries.map((e) => [e._notificationId, e._attempt] as const);
    expect(pairs.map(([, attempt]) => attempt)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(pairs.map(([id, attempt]) => `${id}#${attempt}`).sort()).toEqual(
      ['n-000002', 'n-000004', 'n-000006'].flatMap((id) => [`${id}#1`, `${id}#2`]),
    );
    const started = har.log.entries.map((e) => Date.parse(e.startedDateTime));
    expect(started).toEqual([...started].sort((a, b) => a - b));
    const e = har.log.entries.find((x) => x._notificationId === 'n-000002' && x._attempt === 1);
    const header = (name: string) => e!.request.headers.find((h) => h.name === name)?.value;
    expect(header('Authorization')).toBe('Bearer k-bad');
    expect(header('Content-Encoding')).toBe('gzip');
    expect(Number(header('Content-Length'))).toBe(e!.request.bodySize);
    const detail = await emu.notification('n-000002');
    expect(JSON.parse(e!.request.postData.text)).toEqual(detail.body);
    expect(e!.response.status).toBe(500);
    expect(e!.response.statusText).toBe('Internal Server Error');
    expect(e!.response.content.text).toBe('oops');
    // The gzip bytes as sent, beside the decoded text: a replay sends the real body.
    const sent = Buffer.from(
      await (await fetch(`${emu.url}/__admin/notifications/n-000002/body.gz`)).arrayBuffer(),
    );
    expect(Buffer.from(e!.request._postDataGzipBase64, 'base64').equals(sent)).toBe(true);
    expect(gunzipSync(sent).toString('utf8')).toBe(e!.request.postData.text);
    expect(e!.response.headers.length).toBeGreaterThan(0);

    // The good credential's URL carries a query string: HAR lists it.
    const good = (await (
      await fetch(`${emu.url}/__admin/notifications/export?credentialId=good`)
    ).json()) as typeof har;
    ajv.validate(HAR_SCHEMA, good);
    expect(ajv.errors ?? []).toEqual([]);
    expect(good.log.entries[0]!.request.queryString).toEqual([{ name: 'tenant', value: '7' }]);

    // A failure without a status line: status 0 and the cause, still valid HAR.
    const refused = await deliveryEmulator({ allowHttp: true });
    await refused.credential({ id: 'down', apiKey: 'k', url: 'http://127.0.0.1:9/' });
    await refused.event({ type: 'Issue' });
    await refused.settle();
    const down = (await (await fetch(`${refused.url}/__admin/notifications/export?format=har`)).json()) as {
      log: { entries: Array<{ response: { status: number }; _error: string }> };
    };
    ajv.validate(HAR_SCHEMA, down);
    expect(ajv.errors ?? []).toEqual([]);
    expect(down.log.entries[0]!.response.status).toBe(0);
    expect(down.log.entries[0]!._error).toMatch(/connection refused/);
  });

  it('exports NDJSON: one line per notification, its full view and the gzip body as sent', async () => {
    const { emu } = await twoCredentials();
    const res = await fetch(`${emu.url}/__admin/notifications/export?format=ndjson&bookingStatus=Voided`);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.id)).toEqual(['n-000005', 'n-000006']);
    const detail = await emu.notification('n-000005');
    const { gzipBase64, ...view } = lines[0]!;
    expect(view).toEqual(JSON.parse(JSON.stringify(detail)));
    const gz = Buffer.from(gzipBase64 as string, 'base64');
    expect(gz.length).toBe(Number(detail.headers['Content-Length']));
    expect(JSON.parse(gunzipSync(gz).toString('utf8'))).toEqual(detail.body);
    const wrong = await emu.admin<Problem>('GET', '/notifications/export?format=csv');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('format: "csv" is not one of har, ndjson.');
  });
});

describe('GET /__admin/delivery-stats', () => {
  it('gives each credential its success rate, attempts, last failure and next batch', async () => {
    const good = await receiver();
    const bad = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'good', apiKey: 'k', url: good.url });
    await emu.credential({ id: 'bad', apiKey: 'k', url: bad.url });
    await emu.credential({ id: 'idle', apiKey: 'k', url: good.url, filters: { pcc: ['NONE1'] } });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ to: 'next-batch' });
    const { body } = await emu.admin<{ credentials: Array<Record<string, unknown>> }>(
      'GET',
      '/delivery-stats',
    );
    const [g, b, idle] = body.credentials;
    expect(g).toMatchObject({
      credentialId: 'good',
      configured: true,
      notifications: 1,
      delivered: 1,
      attempts: 1,
      successfulAttempts: 1,
      successRate: 1,
      lastFailure: null,
      nextBatchAt: null,
    });
    expect(b).toMatchObject({
      credentialId: 'bad',
      notifications: 1,
      pending: 1,
      attempts: 2,
      successfulAttempts: 0,
      successRate: 0,
      nextBatchAt: '2026-04-27T11:55:00.000Z',
      lastFailure: {
        notificationId: 'n-000002',
        attempt: 2,
        outcome: 'http_status',
        statusCode: 503,
        at: '2026-04-27T10:55:00.000Z',
      },
    });
    expect(idle).toMatchObject({ credentialId: 'idle', notifications: 0, attempts: 0, successRate: null });
    // A deleted credential's notifications are still counted, marked as no longer configured.
    await emu.admin('DELETE', '/credentials/bad');
    const after = await emu.admin<{ credentials: Array<Record<string, unknown>> }>('GET', '/delivery-stats');
    expect(after.body.credentials.find((c) => c.credentialId === 'bad')).toMatchObject({
      configured: false,
      cancelled: 1,
    });
  });
});

describe('GET /__admin/requests/:id', () => {
  it('keeps a GetAccessToken call as the client sent it and got it back', async () => {
    const emu = await deliveryEmulator();
    await emu.admin('POST', '/users', {
      username: 'alice',
      password: 'pw',
      idWeb: 7,
      webDescription: 'A',
      versions: ['1.7'],
    });
    const sent = JSON.stringify({ Username: 'alice', Password: 'pw' });
    const res = await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken?trace=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client': 'sdk-test' },
      body: sent,
    });
    const answer = await res.text();
    const listed = await emu.admin<{ requests: Array<Record<string, unknown>> }>('GET', '/requests');
    expect(listed.body.requests[0]).not.toHaveProperty('exchange'); // the list stays light
    const { body } = await emu.admin<{
      id: string;
      exchange: { request: Record<string, unknown>; response: Record<string, unknown> };
    }>('GET', '/requests/r-000001');
    const { request, response } = body.exchange;
    expect(request).toMatchObject({
      method: 'POST',
      target: '/api/1.7/AuthService.json/GetAccessToken?trace=1',
      body: sent,
      bodyBytes: sent.length,
      truncated: false,
    });
    expect(request.headers).toContainEqual(['x-client', 'sdk-test']);
    expect(response).toMatchObject({ status: 200, body: answer, truncated: false });
    const answered = Object.fromEntries(
      (response.headers as Array<[string, string]>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(answered).toMatchObject({ 'x-api-user-idweb': '7', 'content-length': String(answer.length) });

    // A gzip body is shown decompressed; a SOAP fault's answer is kept too.
    const soap = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Nope/></soap:Body></soap:Envelope>`;
    const faulted = await fetch(`${emu.url}/api/1.7/AuthService.asmx`, {
      method: 'POST',
      headers: {
        'content-type': 'text/xml; charset=utf-8',
        'content-encoding': 'gzip',
        soapaction: '"http://tempuri.org/GetAccessToken"',
      },
      body: gzipSync(soap),
    });
    const faultText = await faulted.text();
    const second = await emu.admin<{
      exchange: { request: { body: string }; response: { status: number; body: string } };
    }>('GET', '/requests/r-000002');
    expect(second.body.exchange.request.body).toBe(soap);
    expect(second.body.exchange.response).toMatchObject({ status: faulted.status, body: faultText });
    const missing = await emu.admin<Problem>('GET', '/requests/r-999999');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(/No GetAccessToken call "r-999999"/);
  });
});

describe('GET /__admin/notifications pages both ways (the dashboard reaches any page in one call)', () => {
  type Page = {
    notifications: Array<{ id: string }>;
    total: number;
    nextCursor: string | null;
    newerCursor: string | null;
  };
  const nid = (k: number) => `n-${String(k).padStart(6, '0')}`;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => nid(from + i));

  it('answers the oldest page, the next newer ones by after, and refuses two anchors at once', async () => {
    const emu = await deliveryEmulator({ allowHttp: true, seed: 7 });
    await emu.credential({ id: 'a', apiKey: 'k', url: 'http://127.0.0.1:9/a' });
    for (let i = 0; i < 25; i++) await emu.event({ type: 'Issue' });
    const list = async (query: string) => {
      const answer = await emu.admin<Page>('GET', `/notifications?limit=10&${query}`);
      expect(answer.status, query).toBe(200);
      return answer.body;
    };
    const oldest = await list('page=oldest');
    expect(oldest.notifications.map((n) => n.id)).toEqual(range(1, 10));
    expect(oldest).toMatchObject({ total: 25, nextCursor: null, newerCursor: nid(10) });
    const middle = await list(`after=${oldest.newerCursor}`);
    expect(middle.notifications.map((n) => n.id)).toEqual(range(11, 20));
    expect(middle).toMatchObject({ total: 25, nextCursor: nid(11), newerCursor: nid(20) });
    const newest = await list(`after=${middle.newerCursor}`);
    expect(newest.notifications.map((n) => n.id)).toEqual(range(21, 25));
    expect(newest).toMatchObject({ nextCursor: nid(21), newerCursor: null });
    // Back down with before: the page older than the middle one's oldest is the oldest page.
    const back = await list(`before=${middle.nextCursor}`);
    expect(back.notifications.map((n) => n.id)).toEqual(range(1, 10));
    expect(back).toMatchObject({ nextCursor: null, newerCursor: nid(10) });
    // The newest page (no anchor) says there is nothing newer.
    expect(await list('')).toMatchObject({ nextCursor: nid(16), newerCursor: null });
    const both = await emu.admin<Problem>('GET', `/notifications?before=${nid(20)}&after=${nid(3)}`);
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/^before: give before, after or page=oldest/);
    const unknown = await emu.admin<Problem>('GET', '/notifications?after=n-999999');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^after: no notification "n-999999"/);
  });

  it('pages a filtered list from its oldest end: only matches count, cursors name matches', async () => {
    const emu = await deliveryEmulator({ allowHttp: true, seed: 7 });
    await emu.credential({ id: 'a', apiKey: 'k', url: 'http://127.0.0.1:9/a' });
    await emu.credential({ id: 'b', apiKey: 'k', url: 'http://127.0.0.1:9/b' });
    for (let i = 0; i < 12; i++) await emu.event({ type: 'Issue' }); // n odd → a, n even → b
    const a = await emu.admin<Page>('GET', '/notifications?limit=4&credentialId=b&page=oldest');
    expect(a.body.notifications.map((n) => n.id)).toEqual([nid(2), nid(4), nid(6), nid(8)]);
    expect(a.body).toMatchObject({ total: 12, nextCursor: null, newerCursor: nid(8) });
    const next = await emu.admin<Page>('GET', `/notifications?limit=4&credentialId=b&after=${nid(8)}`);
    expect(next.body.notifications.map((n) => n.id)).toEqual([nid(10), nid(12), nid(14), nid(16)]);
    expect(next.body).toMatchObject({ nextCursor: nid(10), newerCursor: nid(16) });
  });
});

import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { type Attempt, deliveryHeaders, type NotificationRecord, toSummary } from '../delivery/index.js';

/** A header or query pair as HAR lists them. */
interface HarPair {
  name: string;
  value: string;
}

const pairs = (record: Readonly<Record<string, string>>): HarPair[] =>
  Object.entries(record).map(([name, value]) => ({ name, value }));

let version: string | undefined;
function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return version;
}

/** What each entry of one notification repeats: its body decoded and as sent. */
export interface HarBody {
  text: string;
  gzipBase64: string;
}

/** One read of the body file for both the decoded text and the bytes as sent. */
export function harBody(n: NotificationRecord): HarBody {
  const gz = n.gz.bytes();
  return { text: gunzipSync(gz).toString('utf8'), gzipBase64: gz.toString('base64') };
}

/**
 * The HAR 1.2 log of notifications (http://www.softwareishard.com/blog/har-12-spec/) up to its
 * `entries` array; `HAR_TAIL` closes it. One entry per attempt (`harEntry`), in the order the
 * attempts started (`startedDateTime`), as HAR viewers expect: src/admin/export.ts streams them.
 */
export function harHead(): string {
  const creator = JSON.stringify({ name: 'reportbo-emulator', version: packageVersion() });
  return `{"log":{"version":"1.2","creator":${creator},"pages":[],"entries":[\n`;
}
export const HAR_TAIL = '\n]}}\n';

/**
 * One attempt as a HAR entry: the request as sent (its headers exactly; `postData.text` the
 * decompressed JSON, since the body went out gzip-compressed, which the entry's comment says) and the
 * receiver's answer as kept (status, headers, the first 4 KiB of its body). An attempt that got no
 * status line (a timeout, a refused connection, a TLS failure) has status 0 and its cause in
 * `_error`, as browsers write them. The request also carries `_postDataGzipBase64`, the gzip bytes as
 * sent, so a replay sends the real body.
 */
export function harEntry(n: NotificationRecord, a: Attempt, body: HarBody) {
  const headers = deliveryHeaders(n.authorization, n.filename, n.gz.length);
  const url = new URL(n.url);
  const responseHeaders = a.responseHeaders ?? {};
  const responseText = a.responseBody ?? '';
  return {
    startedDateTime: a.startedAtWall,
    time: a.durationMs,
    request: {
      method: 'POST',
      url: n.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      postData: { mimeType: 'application/json', params: [], text: body.text },
      headersSize: -1,
      bodySize: n.gz.length,
      _postDataGzipBase64: body.gzipBase64,
    },
    response: {
      status: a.statusCode ?? 0,
      // The standard reason phrase of the status (the receiver's own phrase is not kept).
      statusText: a.statusCode ? (STATUS_CODES[a.statusCode] ?? '') : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(responseHeaders),
      content: {
        size: Buffer.byteLength(responseText),
        mimeType: responseHeaders['content-type'] ?? 'x-unknown',
        text: responseText,
      },
      redirectURL: responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: a.durationMs, receive: 0 },
    comment: `${n.id} attempt ${a.number}/5 (${a.trigger}): ${a.message}. Emulator time ${a.startedAt}. The body was sent gzip-compressed (${n.gz.length} bytes); postData.text is it decompressed, request._postDataGzipBase64 the bytes as sent.`,
    _notificationId: n.id,
    _attempt: a.number,
    _emulatorTime: a.startedAt,
    _outcome: a.outcome,
    ...(a.outcome === 'http_status' ? {} : { _error: a.message }),
  };
}

/**
 * One JSON line of the NDJSON export: the full view (as `GET /__admin/notifications/:id`) and the gzip
 * body as sent, base64. The body goes in as the JSON text it was sent as (the gzip decoded), not
 * parsed and written again: the same line at a third of the CPU (~130 → ~45 µs a line measured over
 * 10,000 in process, decision 0209).
 */
export function ndjsonLine(n: NotificationRecord, resentAs: readonly string[]): string {
  const { attemptCount: _count, lastAttempt: _last, ...summary } = toSummary(n);
  const head = JSON.stringify({
    ...summary,
    headers: deliveryHeaders(n.authorization, n.filename, n.gz.length),
  });
  const { text, gzipBase64 } = harBody(n);
  return `${head.slice(0, -1)},"body":${text},"attempts":${JSON.stringify(n.attempts)},"resentAs":${JSON.stringify(resentAs)},"gzipBase64":"${gzipBase64}"}\n`;
}

/**
 * A body's wire bytes: its JSON, UTF-8, gzipped (spec "1. Notification delivery (outbound from the service)":
 * `Content-Encoding: gzip`). The reservation store keeps a body in this form and the outbox sends it, so one
 * StoredBody serves both; its bytes live in the process's body file (src/contract/body-file.ts, decision 0153).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { NotificationBody } from './body.js';
import { BodyFile, type StoredBody } from './body-file.js';
import { sketchBody } from './sketch.js';

/**
 * Serializes and gzips a body, keeps its bytes in `file` (the process's body file by default) and
 * sketches its values for the search (decision 0254). gzipSync answers a view into zlib's 16 KiB output
 * chunk; the file copies it, so nothing pins it.
 */
export function packBody(body: NotificationBody, file: BodyFile = BodyFile.shared): StoredBody {
  const text = JSON.stringify(body);
  const packed = file.keep(gzipSync(Buffer.from(text, 'utf8')));
  sketchBody(packed, text);
  return packed;
}

/** The body a packed body holds, parsed afresh (callers may change it). */
export function unpackBody(gz: StoredBody | Buffer): NotificationBody {
  return JSON.parse(gunzipSync(Buffer.isBuffer(gz) ? gz : gz.bytes()).toString('utf8')) as NotificationBody;
}

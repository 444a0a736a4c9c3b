/**
 * A body's wire bytes: its JSON, UTF-8, gzipped (spec "1. Notification delivery (outbound from the service)":
 * `Content-Encoding: gzip`). The reservation store keeps a body in this form and the outbox sends it, so one
 * Buffer serves both.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { NotificationBody } from './body.js';

/** Packed bodies are copied side by side into slabs of this size (~50 bodies of ~1.3 KB each). */
export const PACK_SLAB_BYTES = 64 * 1024;
/** A body larger than this gets its own exact-size allocation (a slab would waste its tail). */
export const PACK_OWN_ALLOCATION_BYTES = PACK_SLAB_BYTES / 4;

let slab = Buffer.alloc(0);
let slabUsed = 0;

/**
 * An exact-length copy of `view`. gzipSync answers a view into zlib's 16 KiB output chunk: kept as
 * is, a ~1.3 KB body pins the whole chunk (16 KiB per pending notification in the outbox-scale
 * bench). Node's shared 8 KiB Buffer pool is no better here: other small Buffers made between two
 * bodies fill it, so it held ~2 bodies per 8 KiB (measured). A slab of our own holds only bodies,
 * and bodies live as long as their notifications (the outbox keeps them until a reset).
 */
function keep(view: Buffer): Buffer {
  const length = view.length;
  if (length > PACK_OWN_ALLOCATION_BYTES) {
    const own = Buffer.alloc(length);
    view.copy(own);
    return own;
  }
  if (slabUsed + length > slab.length) {
    slab = Buffer.alloc(PACK_SLAB_BYTES);
    slabUsed = 0;
  }
  view.copy(slab, slabUsed);
  const kept = slab.subarray(slabUsed, slabUsed + length);
  slabUsed += length;
  return kept;
}

/** Serializes and gzips a body into a Buffer of exactly its length. */
export function packBody(body: NotificationBody): Buffer {
  return keep(gzipSync(Buffer.from(JSON.stringify(body), 'utf8')));
}

/** The body a packed Buffer holds, parsed afresh (callers may change it). */
export function unpackBody(gz: Buffer): NotificationBody {
  return JSON.parse(gunzipSync(gz).toString('utf8')) as NotificationBody;
}

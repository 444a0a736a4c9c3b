/**
 * A body as the emulator keeps it, packed (decision 0134), and its wire bytes: its JSON, UTF-8,
 * gzipped (spec "1. Notification delivery (outbound from the service)": `Content-Encoding: gzip`).
 *
 * Packed is one tag byte, then the JSON deflated (raw) against a preset dictionary of generated bodies
 * (src/contract/body-dictionary.ts): ~640 bytes a body instead of gzip's ~1,250, which is most of what
 * a pending notification costs (100,000 pending). The reservation store keeps a body in
 * this form, the outbox shares the same Buffer, and each attempt gzips it afresh: gzip with the same
 * input and level gives the same bytes, so every attempt sends identical bytes.
 *
 * A packed Buffer may also be plain gzip: bodies read back from a data dir written before decision
 * 0134 (their first byte is gzip's 0x1f, never a tag). They are kept and sent as they are.
 */
import { deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import type { NotificationBody } from './body.js';
import { BODY_DICTIONARY_1 } from './body-dictionary.js';

/** First byte of a body deflated against BODY_DICTIONARY_1. */
const TAG_DICTIONARY_1 = 0x01;
/** First two bytes of every gzip member (RFC 1952). */
const GZIP_ID1 = 0x1f;
const GZIP_ID2 = 0x8b;

/** Packed bodies are copied side by side into slabs of this size (~100 bodies of ~640 bytes each). */
export const PACK_SLAB_BYTES = 64 * 1024;
/** A body larger than this gets its own exact-size allocation (a slab would waste its tail). */
export const PACK_OWN_ALLOCATION_BYTES = PACK_SLAB_BYTES / 4;

let slab = Buffer.alloc(0);
let slabUsed = 0;

/**
 * `tag` then `view`, copied into a Buffer of exactly that length. zlib's sync calls answer a view
 * into a 16 KiB output chunk: kept as is, a small body pins the whole chunk (16 KiB per pending
 * notification in the outbox-scale bench). Node's shared 8 KiB Buffer pool is no better here: other
 * small Buffers made between two bodies fill it (measured ~2 bodies per 8 KiB). A slab of our own
 * holds only bodies, and bodies live as long as their notifications (the outbox keeps them until a
 * reset).
 */
function keep(tag: number, view: Buffer): Buffer {
  const length = 1 + view.length;
  let kept: Buffer;
  if (length > PACK_OWN_ALLOCATION_BYTES) {
    kept = Buffer.alloc(length);
  } else {
    if (slabUsed + length > slab.length) {
      slab = Buffer.alloc(PACK_SLAB_BYTES);
      slabUsed = 0;
    }
    kept = slab.subarray(slabUsed, slabUsed + length);
    slabUsed += length;
  }
  kept[0] = tag;
  view.copy(kept, 1);
  return kept;
}

function isGzip(packed: Buffer): boolean {
  return packed[0] === GZIP_ID1 && packed[1] === GZIP_ID2;
}

/** Serializes and packs a body into a Buffer of exactly its length. */
export function packBody(body: NotificationBody): Buffer {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  return keep(TAG_DICTIONARY_1, deflateRawSync(json, { dictionary: BODY_DICTIONARY_1 }));
}

/** The body's JSON bytes (UTF-8) from its packed form. */
export function unpackJson(packed: Buffer): Buffer {
  if (packed[0] === TAG_DICTIONARY_1)
    return inflateRawSync(packed.subarray(1), { dictionary: BODY_DICTIONARY_1 });
  if (isGzip(packed)) return gunzipSync(packed);
  throw new Error(`not a packed body (first byte 0x${(packed[0] ?? 0).toString(16).padStart(2, '0')})`);
}

/** The body a packed Buffer holds, parsed afresh (callers may change it). */
export function unpackBody(packed: Buffer): NotificationBody {
  return JSON.parse(unpackJson(packed).toString('utf8')) as NotificationBody;
}

/**
 * The bytes a POST of the body sends: its JSON gzipped, the same bytes on every call (made afresh
 * each time, ~once per attempt; a body read back as gzip is answered as it is).
 */
export function wireBytes(packed: Buffer): Buffer {
  return isGzip(packed) ? packed : gzipSync(unpackJson(packed));
}

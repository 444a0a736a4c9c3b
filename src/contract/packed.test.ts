import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateNotification } from '../generate/index.js';
import { PACK_OWN_ALLOCATION_BYTES, PACK_SLAB_BYTES, packBody, unpackBody } from './packed.js';

const body = generateNotification({ event: 'Issue', seed: 7, at: '2026-04-27T10:00:00Z' }).target;

describe('packed bodies', () => {
  it('are the gzipped UTF-8 JSON of the body, and unpack to an equal body', () => {
    const gz = packBody(body);
    expect(gunzipSync(gz).toString('utf8')).toBe(JSON.stringify(body));
    expect(unpackBody(gz)).toEqual(body);
  });

  it('never pin zlib’s 16 KiB output chunk: small bodies share a slab, large ones get their own bytes', () => {
    const small = [packBody(body), packBody(body)];
    for (const gz of small) expect(gz.buffer.byteLength).toBe(PACK_SLAB_BYTES);
    // Side by side in one slab (or the second opened a new one), never overlapping.
    const [a, b] = small as [Buffer, Buffer];
    if (a.buffer === b.buffer) expect(b.byteOffset).toBe(a.byteOffset + a.length);
    const large = { ...body, Extra: Array.from({ length: 4000 }, (_, i) => `${i * 7919}`) };
    const gz = packBody(large as typeof body);
    expect(gz.length).toBeGreaterThan(PACK_OWN_ALLOCATION_BYTES);
    expect(gz.buffer.byteLength).toBe(gz.length);
    expect(unpackBody(gz)).toEqual(large);
  });
});

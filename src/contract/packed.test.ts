import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateNotification } from '../generate/index.js';
import {
  PACK_OWN_ALLOCATION_BYTES,
  PACK_SLAB_BYTES,
  packBody,
  unpackBody,
  unpackJson,
  wireBytes,
} from './packed.js';

const at = '2026-04-27T10:00:00Z';
const body = generateNotification({ event: 'Issue', seed: 7, at }).target;

describe('packed bodies', () => {
  it('unpack to the UTF-8 JSON of the body and to an equal body', () => {
    const packed = packBody(body);
    expect(unpackJson(packed).toString('utf8')).toBe(JSON.stringify(body));
    expect(unpackBody(packed)).toEqual(body);
  });

  it('are about half the size of the body gzipped (decision 0134), over bodies not in the dictionary', () => {
    let packedBytes = 0;
    let gzipBytes = 0;
    for (let seed = 1_000; seed < 1_050; seed++) {
      const b = generateNotification({ event: 'Issue', seed, at }).target;
      packedBytes += packBody(b).length;
      gzipBytes += gzipSync(JSON.stringify(b)).length;
    }
    expect(packedBytes).toBeLessThan(gzipBytes * 0.6);
  });

  it('give the same gzip wire bytes on every call, which gunzip to the body’s JSON', () => {
    const packed = packBody(body);
    const first = wireBytes(packed);
    expect(first[0]).toBe(0x1f);
    expect(gunzipSync(first).toString('utf8')).toBe(JSON.stringify(body));
    for (let i = 0; i < 3; i++) expect(wireBytes(packed).equals(first)).toBe(true);
  });

  it('read a plain gzip body (a data dir written before decision 0134) and send it as it is', () => {
    const gz = gzipSync(Buffer.from(JSON.stringify(body), 'utf8'));
    expect(unpackBody(gz)).toEqual(body);
    expect(wireBytes(gz)).toBe(gz);
  });

  it('refuse bytes that are neither form with a clear error', () => {
    expect(() => unpackBody(Buffer.from('{"FileType":"Air"}'))).toThrow(
      /not a packed body \(first byte 0x7b\)/,
    );
  });

  it('never pin zlib’s 16 KiB output chunk: small bodies share a slab, large ones get their own bytes', () => {
    const small = [packBody(body), packBody(body)];
    for (const packed of small) expect(packed.buffer.byteLength).toBe(PACK_SLAB_BYTES);
    // Side by side in one slab (or the second opened a new one), never overlapping.
    const [a, b] = small as [Buffer, Buffer];
    if (a.buffer === b.buffer) expect(b.byteOffset).toBe(a.byteOffset + a.length);
    const large = { ...body, Extra: Array.from({ length: 4000 }, (_, i) => `${i * 7919}`) };
    const packed = packBody(large as typeof body);
    expect(packed.length).toBeGreaterThan(PACK_OWN_ALLOCATION_BYTES);
    expect(packed.buffer.byteLength).toBe(packed.length);
    expect(unpackBody(packed)).toEqual(large);
  });
});

import { randomFillSync } from 'node:crypto';

/** Produces opaque token strings. */
export type TokenSource = () => string;

const TOKEN_BYTES = 16;
/**
 * Random bytes fetched per call into the CSPRNG: 256 tokens' worth. One `randomBytes(16)` per
 * token cost a buffer and a native call each, ~5% of the CPU of a 1.7 JSON GetAccessToken.
 */
const RANDOM_POOL_BYTES = TOKEN_BYTES * 256;

/**
 * The first byte of a token with its high nibble moved into 0xa–0xf, so the token's first hex
 * character is a letter: a 1.6 answer is the token or an error string that "begins with a numeric
 * code" (spec "3. GetAccessToken", Responses), and a client tells them apart by the first character. The low
 * nibble keeps its randomness; 125 random bits remain.
 */
export function letterFirst(byte: number): number {
  return (((byte >>> 4) % 6) + 10) * 16 + (byte & 0x0f);
}

/** Cryptographically random 32-hex-character tokens, first character a–f (no seed given). */
export function cryptoTokenSource(): TokenSource {
  const pool = Buffer.allocUnsafe(RANDOM_POOL_BYTES);
  let offset = RANDOM_POOL_BYTES;
  return () => {
    if (offset === RANDOM_POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    pool[offset] = letterFirst(pool[offset] as number);
    const token = pool.toString('hex', offset, offset + TOKEN_BYTES);
    offset += TOKEN_BYTES;
    return token;
  };
}

/**
 * Deterministic 32-hex-character tokens from a seed (sfc32 generator), first character a–f, so a
 * seeded scenario run issues the same tokens every time (product rule "Determinism").
 */
export function seededTokenSource(seed: number): TokenSource {
  const next = sfc32(seed);
  return () => {
    const first = next();
    let out = ((letterFirst(first >>> 24) * 2 ** 24 + (first & 0xffffff)) >>> 0).toString(16);
    for (let i = 1; i < TOKEN_BYTES / 4; i++) out += next().toString(16).padStart(8, '0');
    return out;
  };
}

/** A seeded generator of uniform numbers in [0, 1), for fault fractions. */
export function seededUnit(seed: number): () => number {
  const next = sfc32(seed ^ 0x5bd1e995);
  return () => next() / 2 ** 32;
}

function sfc32(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const step = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) step();
  return step;
}

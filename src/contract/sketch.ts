/**
 * A sketch of each packed body (decision 0254): a 4,096-bit filter of the trigrams of its values,
 * lower case, made as the body is packed, so a search never has to decode a body to learn what it
 * cannot hold. The sketches live in a file of their own beside the body file (the
 * same kind of file, decision 0153: the kernel's cache, not the process's memory), one fixed-size
 * entry each, so a body keeps only its entry's number. A body without one (read back from a data
 * dir) is sketched by the first search that decodes it.
 */
import { type BodyFile, StoredBody } from './body-file.js';

const SKETCH_BITS = 4096;
/** 512: a body file slab (64 KiB) holds 128 sketches exactly, so sketch `i` is at `i × SKETCH_BYTES`. */
const SKETCH_BYTES = SKETCH_BITS / 8;
/** Sketches read with one read: a whole slab of the file. */
const BLOCK_SKETCHES = (64 * 1024) / SKETCH_BYTES;
/** A hash's top bits name a sketch bit: 12 of them for 4,096. */
const SHIFT = 32 - Math.log2(SKETCH_BITS);

/**
 * The two bits of the trigram ending at a character (two hashes: against one, a 3-letter term's
 * false "may hold" at 5,000 bodies went from 610 to 313; decision 0254): `window` holds the low bytes
 * of the last three characters' codes, each read once. Characters past U+00FF share bits with
 * others: a false "may hold", never a false "lacks".
 */
const firstBit = (window: number): number => Math.imul(window & 0xffffff, 0x9e3779b1) >>> SHIFT;
const secondBit = (window: number): number => Math.imul(window & 0xffffff, 0x85ebca6b) >>> SHIFT;

/** The sketch bits of a term's trigrams (lower case already): none under three characters. */
export function termBits(text: string): number[] {
  const bits: number[] = [];
  let window = 0;
  for (let i = 0; i < text.length; i++) {
    window = (window << 8) | (text.charCodeAt(i) & 0xff);
    if (i >= 2) bits.push(firstBit(window), secondBit(window));
  }
  return bits;
}

/** The one sketch being made: the file copies it, so no 512-byte buffer is left per body packed. */
const scratch = new Uint8Array(SKETCH_BYTES);

/**
 * The sketch of a body (valid until the next call): the trigrams of each of its values as text (`String(value)`, lower case,
 * as the search reads them; never a key, and none across two values), ASCII letters lower-cased as
 * they are read, any other text lower-cased whole.
 */
export function sketchOf(body: unknown): Uint8Array {
  const sketch = scratch.fill(0);
  const add = (value: string): void => {
    let text = value;
    let ascii = true;
    let window = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c > 0x7f && ascii) {
        // Read again from the start, lower-cased whole (the letters read so far set the same bits).
        ascii = false;
        text = value.toLowerCase();
        window = 0;
        i = -1;
        continue;
      }
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      window = (window << 8) | (c & 0xff);
      if (i >= 2) {
        const first = firstBit(window);
        const second = secondBit(window);
        sketch[first >>> 3]! |= 1 << (first & 7);
        sketch[second >>> 3]! |= 1 << (second & 7);
      }
    }
  };
  const walk = (value: unknown): void => {
    if (typeof value === 'string') add(value);
    else if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value !== null && typeof value === 'object')
      for (const key in value) walk((value as Record<string, unknown>)[key]);
    else add(String(value));
  };
  walk(body);
  return sketch;
}

/** The sketches of one body file's bodies, in a body file of their own; the block read last kept. */
class Sketches {
  readonly #file: BodyFile;
  #count = 0;
  #block: Uint8Array = new Uint8Array(0);
  #blockAt = -1;
  #blockCount = 0;

  constructor(bodies: BodyFile) {
    this.#file = bodies.sibling();
  }

  /** Keeps `sketch`; answers its number. */
  keep(sketch: Uint8Array): number {
    this.#file.keep(sketch);
    return this.#count++;
  }

  /** Whether sketch `index` has every bit of `bits`; true when it cannot be read (a false "may hold"). */
  has(index: number, bits: readonly number[]): boolean {
    const block = Math.floor(index / BLOCK_SKETCHES);
    const at = (index - block * BLOCK_SKETCHES) * SKETCH_BYTES;
    if (block !== this.#blockAt || index - block * BLOCK_SKETCHES >= this.#blockCount) {
      const count = Math.min(BLOCK_SKETCHES, this.#count - block * BLOCK_SKETCHES);
      const where = new StoredBody(this.#file, block * BLOCK_SKETCHES * SKETCH_BYTES, count * SKETCH_BYTES);
      try {
        this.#block = this.#file.bytes(where);
      } catch {
        this.#blockAt = -1;
        return true;
      }
      this.#blockAt = block;
      this.#blockCount = count;
    }
    const sketch = this.#block;
    for (const bit of bits) if ((sketch[at + (bit >>> 3)]! & (1 << (bit & 7))) === 0) return false;
    return true;
  }
}

const sketches = new WeakMap<BodyFile, Sketches>();

function sketchesOf(file: BodyFile): Sketches {
  let kept = sketches.get(file);
  if (!kept) {
    kept = new Sketches(file);
    sketches.set(file, kept);
  }
  return kept;
}

/** Sketches the packed body `body` from what it holds (as packed, or as a search decoded it). */
export function sketchBody(body: StoredBody, value: unknown): void {
  body.sketch = sketchesOf(body.file).keep(sketchOf(value));
}

/** False when no value of `body` can hold a text whose trigrams have the sketch bits `bits`; true when one may. */
export function bodyMayHold(body: StoredBody, bits: readonly number[]): boolean {
  return body.sketch < 0 || sketchesOf(body.file).has(body.sketch, bits);
}

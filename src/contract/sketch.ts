/**
 * A sketch of each packed body (decision 0254): a 4,096-bit filter of the trigrams of its values,
 * lower case, made as the body is packed, so a search never has to decode a body to learn what it
 * cannot hold. The sketches live in a file of their own beside the body file (the
 * same kind of file, decision 0153: the kernel's cache, not the process's memory), one fixed-size
 * entry each, so a body keeps only its entry's number. A body without one (read back from a data
 * dir) is sketched by the first search that decodes it.
 */
import { BODY_SLAB_BYTES, type BodyFile, StoredBody } from './body-file.js';

const SKETCH_BITS = 4096;
/** 512: a body file slab holds 128 sketches exactly, so sketch `i` is at `i × SKETCH_BYTES`. */
const SKETCH_BYTES = SKETCH_BITS / 8;
/** Sketches read with one read: a whole slab of the file. */
const BLOCK_SKETCHES = BODY_SLAB_BYTES / SKETCH_BYTES;
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
/** The last three characters of the value being read, and how many of it were read. */
let window = 0;
let read = 0;

/** Reads one character of a value (lower case already, or an ASCII capital). */
function addChar(code: number): void {
  const c = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  window = (window << 8) | (c & 0xff);
  if (++read >= 3) {
    const first = firstBit(window);
    const second = secondBit(window);
    scratch[first >>> 3]! |= 1 << (first & 7);
    scratch[second >>> 3]! |= 1 << (second & 7);
  }
}

/** The index just past the string whose characters start at `from` (after its opening quote). */
function stringEnd(json: string, from: number): number {
  let i = from;
  for (;;) {
    const c = json.charCodeAt(i++);
    if (c === 0x5c) i++;
    else if (c === 0x22 || Number.isNaN(c)) return i;
  }
}

/** JSON's one-letter escapes: `\n` → 10, …; any other (`\"`, `\\`, `\/`) is the character itself. */
const ESCAPED: Record<number, number> = { 98: 8, 102: 12, 110: 10, 114: 13, 116: 9 };

/**
 * Reads the value string starting at `from` (after its quote), unescaped; answers the index past it.
 * A string with a character past U+007F is parsed and lower-cased whole, as the search reads it.
 */
function addString(json: string, from: number): number {
  window = 0;
  read = 0;
  let i = from;
  for (;;) {
    let c = json.charCodeAt(i++);
    if (c === 0x22 || Number.isNaN(c)) return i;
    if (c === 0x5c) {
      const e = json.charCodeAt(i++);
      if (e === 0x75) {
        c = Number.parseInt(json.slice(i, i + 4), 16);
        i += 4;
      } else c = ESCAPED[e] ?? e;
    }
    if (c > 0x7f) {
      const end = stringEnd(json, from);
      const text = (JSON.parse(json.slice(from - 1, end)) as string).toLowerCase();
      window = 0;
      read = 0;
      for (let k = 0; k < text.length; k++) addChar(text.charCodeAt(k));
      return end;
    }
    addChar(c);
  }
}

/** Object or array, per depth of the text being read (deeper than this: read as an array's values). */
const inObject = new Uint8Array(256);

/**
 * The sketch of a body's JSON text (valid until the next call): the trigrams of each of its values
 * as the search reads them (`String(value)`, lower case; never a key, none across two values), read
 * from the text with nothing parsed or allocated but for a string with a character past U+007F.
 */
export function sketchOf(json: string): Uint8Array {
  scratch.fill(0);
  let depth = 0;
  let key = false;
  window = 0;
  read = 0;
  for (let i = 0; i < json.length; ) {
    const c = json.charCodeAt(i++);
    if (c === 0x22) {
      i = key ? stringEnd(json, i) : addString(json, i);
      key = false;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      depth++;
      key = c === 0x7b;
      if (depth < inObject.length) inObject[depth] = key ? 1 : 0;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) key = depth < inObject.length && inObject[depth] === 1;
    else if (c === 0x3a) key = false;
    else if (c > 0x20) {
      addChar(c); // a number, true, false or null: as String() writes it
      continue;
    }
    window = 0;
    read = 0;
  }
  return scratch;
}

/** The sketches of one body file's bodies, in a body file of their own; the block read last kept. */
class Sketches {
  readonly #file: BodyFile;
  #count = 0;
  /** The slab read last, read into this one buffer: a search over 20,000 reads 157 slabs, and a new 64 KiB buffer each made 10 MB of garbage per search. */
  readonly #block = new Uint8Array(BODY_SLAB_BYTES);
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
        this.#file.copy(where, this.#block, 0);
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

/** Sketches the packed body `body` from its JSON text (as packed, or as a search decoded it). */
export function sketchBody(body: StoredBody, json: string): void {
  body.sketch = sketchesOf(body.file).keep(sketchOf(json));
}

/** False when no value of `body` can hold a text whose trigrams have the sketch bits `bits`; true when one may. */
export function bodyMayHold(body: StoredBody, bits: readonly number[]): boolean {
  return body.sketch < 0 || sketchesOf(body.file).has(body.sketch, bits);
}

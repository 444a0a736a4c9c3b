/**
 * The generator's random source: a small seeded PRNG (sfc32), so one seed fixes every value and
 * nothing reads the wall clock or Math.random. Faker is used only for names (see names.ts).
 */

/** Largest seed value (settings, events and the CLI all take 31-bit non-negative integers). */
export const MAX_SEED = 2 ** 31 - 1;

function mix32(h: number): number {
  let z = h | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A seed derived from a parent seed and a path of integers (e.g. store seed, event number). */
export function deriveSeed(seed: number, ...parts: number[]): number {
  let h = mix32(seed ^ 0x5bd1e995);
  for (const p of parts) h = mix32(h ^ mix32(p + 0x9e3779b9));
  return h & MAX_SEED;
}

/** Seeded random numbers with the helpers the builders need. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = mix32(seed ^ 0x9e3779b9);
    this.b = mix32(seed ^ 0x243f6a88);
    this.c = mix32(seed ^ 0xb7e15162);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One value by relative weight. */
  weighted<T>(table: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of table) total += w;
    let r = this.next() * total;
    for (const [v, w] of table) {
      r -= w;
      if (r < 0) return v;
    }
    return table[table.length - 1]![0];
  }

  /** A string of `length` characters drawn from `alphabet`. */
  chars(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  /** A fresh seed for a sub-generator (e.g. faker). */
  seed(): number {
    return Math.floor(this.next() * MAX_SEED);
  }
}

export const DIGITS = '0123456789';
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Locator alphabet: letters and digits without the look-alikes 0/O and 1/I. */
export const LOCATOR_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Names from faker (its English locale only, not all of faker). faker is the slowest module to
 * import; `serve` starts without it because the generator is part of the reservation lifecycle,
 * which loads on first use (src/lazy-module.ts).
 */
import type { Faker, Randomizer } from '@faker-js/faker';
import { faker as stock } from '@faker-js/faker/locale/en';

// MT19937 (mersenne53 below).
const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;

// The same Faker class and English definitions, with faker's own Mersenne Twister replaced by
// mersenne53() below (same numbers). The full `@faker-js/faker` entry would export the class and the
// locale data, but it loads every locale (~260 ms against ~55 ms for this one).
const FakerClass = stock.constructor as new (options: {
  locale: Faker['rawDefinitions'];
  randomizer: Randomizer;
}) => Faker;
const f = new FakerClass({ locale: stock.rawDefinitions, randomizer: mersenne53() });

/** A seeded source of person and company names. */
export interface NameSource {
  firstName(sex: 'female' | 'male'): string;
  lastName(): string;
  company(): string;
}

/** Names drawn from faker seeded with `seed` (same seed, same names). */
export function seededNames(seed: number): NameSource {
  f.seed(seed);
  return {
    firstName: (sex) => f.person.firstName(sex),
    lastName: () => f.person.lastName(),
    company: () => f.company.name(),
  };
}

/**
 * MT19937 answering what faker's default randomizer answers (53-bit floats from two 32-bit draws,
 * seeded with `init_genrand` for a number), for every seed: test/faker-randomizer.test.ts compares
 * the two over thousands of seeds and names. Why: every generated body seeds faker once, and faker's
 * own seeding builds the 624-word state in a plain holey array (`Array.from({ length: 624 })`):
 * 26 µs per seed against 2 µs here with an Int32Array; seed + the 4 names of a body 33 → 16 µs;
 * `generate --count 20000` 2.45 → 2.0 s of CPU with the same bytes (cmp), an admin Issue event
 * about 2–4% less CPU (decision 0037, measured on the shared 2-core machine). Storing the words as int32
 * changes no draw: faker reads them only through bitwise operators, which wrap to 32 bits anyway.
 */
export function mersenne53(): Randomizer {
  const mt = new Int32Array(N);
  let index = N;
  const twist = () => {
    for (let i = 0; i < N; i++) {
      const y = (mt[i]! & UPPER) | (mt[(i + 1) % N]! & LOWER);
      mt[i] = mt[(i + M) % N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    index = 0;
  };
  const u32 = () => {
    if (index >= N) twist();
    let y = mt[index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };
  const seed = (value: number | number[]) => {
    if (typeof value !== 'number') throw new TypeError('mersenne53: only number seeds are supported');
    mt[0] = value;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = Math.imul(1812433253, prev) + i;
    }
    index = N;
  };
  seed(0);
  return {
    next: () => ((u32() >>> 5) * 67108864 + (u32() >>> 6)) * 2 ** -53,
    seed,
  };
}

/**
 * Names from faker, loaded on first use: faker is the slowest module to import, and `serve` must
 * start without it. `require` of the ESM locale entry is synchronous (Node ≥ 20.19), so the
 * generator API can stay synchronous; only the English locale is loaded, not all of faker.
 */
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

let instance: Faker | undefined;

function faker(): Faker {
  if (!instance) {
    const require = createRequire(import.meta.url);
    instance = (require('@faker-js/faker/locale/en') as { faker: Faker }).faker;
  }
  return instance;
}

/** A seeded source of person and company names. */
export interface NameSource {
  firstName(sex: 'female' | 'male'): string;
  lastName(): string;
  company(): string;
}

/** Names drawn from faker seeded with `seed` (same seed, same names). */
export function seededNames(seed: number): NameSource {
  const f = faker();
  f.seed(seed);
  return {
    firstName: (sex) => f.person.firstName(sex),
    lastName: () => f.person.lastName(),
    company: () => f.company.name(),
  };
}

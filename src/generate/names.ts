/**
 * Names from faker, its English locale only: the full `@faker-js/faker` entry loads every locale
 * (~260 ms to import against ~55 ms for this one; docs/perf-budget.md).
 */
import { faker } from '@faker-js/faker/locale/en';

/** A seeded source of person and company names. */
export interface NameSource {
  firstName(sex: 'female' | 'male'): string;
  lastName(): string;
  company(): string;
}

/** faker seeds its own Mersenne Twister: same seed, same names (test/generate-properties.test.ts). */
export function seededNames(seed: number): NameSource {
  faker.seed(seed);
  return {
    firstName: (sex) => faker.person.firstName(sex),
    lastName: () => faker.person.lastName(),
    company: () => faker.company.name(),
  };
}

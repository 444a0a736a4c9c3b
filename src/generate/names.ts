/**
 * Names from faker (its English locale only, not all of faker). faker is the slowest module to
 * import; `serve` starts without it because the generator is part of the reservation lifecycle,
 * which loads on first use (src/lazy-module.ts).
 */
import { faker as f } from '@faker-js/faker/locale/en';

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

/**
 * Passengers: 1–9 with a realistic mix (at least one adult, never more infants than adults, since
 * an infant travels on an adult's lap). Purchase is filled in once tickets are priced.
 */
import type { PaxType } from '../contract/index.js';
import type { NameSource } from './names.js';
import type { Rng } from './random.js';

/** Most passengers in one booking (spec "Pax (each element)" and common GDS limits). */
export const MAX_PAX = 9;

const PAX_COUNTS: ReadonlyArray<readonly [number, number]> = [
  [1, 40],
  [2, 30],
  [3, 12],
  [4, 10],
  [5, 3],
  [6, 2],
  [7, 1],
  [8, 1],
  [9, 1],
];

const CHILD_AGES = ['C03', 'C04', 'C05', 'C06', 'C07', 'C08', 'C09', 'C10', 'C11', 'C12'] as const;

export interface Traveller {
  PaxNumber: number;
  PaxRef: string;
  FirstName: string;
  LastName: string;
  Type: PaxType;
}

/** Share of the adult fare each passenger type pays. */
export const FARE_SHARE: Readonly<Record<string, number>> = { ADT: 1, YTH: 0.85, CHD: 0.75, INF: 0.1 };

/** Picks passenger types for a party of `count`. */
function paxTypes(rng: Rng, count: number): PaxType[] {
  const types: PaxType[] = ['ADT'];
  let adults = 1;
  let infants = 0;
  while (types.length < count) {
    const t = rng.weighted<PaxType | 'Cnn'>([
      ['ADT', 50],
      ['CHD', 18],
      ['INF', infants < adults ? 12 : 0],
      ['YTH', 6],
      ['Cnn', 10],
    ]);
    const type: PaxType = t === 'Cnn' ? rng.pick(CHILD_AGES) : t;
    if (type === 'ADT') adults++;
    if (type === 'INF') infants++;
    types.push(type);
  }
  return types;
}

/** Builds the passengers of a booking; `count` is clamped to 1–9. */
export function buildTravellers(rng: Rng, names: NameSource, count?: number): Traveller[] {
  const n = Math.min(MAX_PAX, Math.max(1, count ?? rng.weighted(PAX_COUNTS)));
  const family = names.lastName();
  return paxTypes(rng, n).map((type, i) => ({
    PaxNumber: i + 1,
    PaxRef: `${i + 1}.1`,
    FirstName: names.firstName(rng.chance(0.5) ? 'female' : 'male'),
    // Families share a surname; minors always travel with the family name.
    LastName: i === 0 || type !== 'ADT' || rng.chance(0.6) ? family : names.lastName(),
    Type: type,
  }));
}

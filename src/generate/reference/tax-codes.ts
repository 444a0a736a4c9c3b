/**
 * Ticket tax codes (IATA two-character codes) with a plausible amount range in US dollars.
 * Carrier surcharges apply to any ticket; the others to departures from their country.
 */
export interface TaxCode {
  code: string;
  minUsd: number;
  maxUsd: number;
}

/** Carrier-imposed surcharges (YQ fuel, YR other). */
export const CARRIER_SURCHARGES: readonly TaxCode[] = [
  { code: 'YQ', minUsd: 20, maxUsd: 250 },
  { code: 'YR', minUsd: 5, maxUsd: 60 },
];

/** Taxes charged on departure from a country. */
export const DEPARTURE_TAXES: Readonly<Record<string, readonly TaxCode[]>> = {
  US: [
    { code: 'US', minUsd: 20, maxUsd: 45 },
    { code: 'AY', minUsd: 5.6, maxUsd: 11.2 },
    { code: 'XF', minUsd: 4.5, maxUsd: 18 },
    { code: 'ZP', minUsd: 5, maxUsd: 20 },
  ],
  GB: [
    { code: 'GB', minUsd: 16, maxUsd: 250 },
    { code: 'UB', minUsd: 20, maxUsd: 70 },
  ],
  FR: [
    { code: 'FR', minUsd: 5, maxUsd: 30 },
    { code: 'QX', minUsd: 10, maxUsd: 40 },
  ],
  DE: [
    { code: 'DE', minUsd: 10, maxUsd: 30 },
    { code: 'RA', minUsd: 15, maxUsd: 80 },
  ],
  ES: [
    { code: 'JD', minUsd: 10, maxUsd: 25 },
    { code: 'OG', minUsd: 0.6, maxUsd: 1 },
  ],
  MX: [{ code: 'MX', minUsd: 20, maxUsd: 60 }],
  BR: [{ code: 'BR', minUsd: 10, maxUsd: 40 }],
  AR: [{ code: 'AR', minUsd: 10, maxUsd: 60 }],
  CL: [{ code: 'CL', minUsd: 10, maxUsd: 35 }],
  CO: [{ code: 'CO', minUsd: 15, maxUsd: 50 }],
  PE: [{ code: 'PE', minUsd: 10, maxUsd: 40 }],
  CA: [{ code: 'CA', minUsd: 10, maxUsd: 30 }],
};

/**
 * Currencies (ISO 4217) with minor-unit digits and an approximate value in US dollars, and the
 * currency a booking is sold in by the country it starts in. Rates are only for plausible amounts.
 */
export interface Currency {
  code: string;
  minorDigits: number;
  usdPerUnit: number;
}

const rows: Array<[string, number, number]> = [
  ['USD', 2, 1],
  ['EUR', 2, 1.08],
  ['GBP', 2, 1.27],
  ['CHF', 2, 1.12],
  ['CAD', 2, 0.73],
  ['MXN', 2, 0.055],
  ['BRL', 2, 0.19],
  ['ARS', 2, 0.0011],
  ['CLP', 0, 0.0011],
  ['COP', 2, 0.00025],
  ['PEN', 2, 0.27],
  ['UYU', 2, 0.025],
  ['PYG', 0, 0.00013],
  ['JPY', 0, 0.0066],
  ['AUD', 2, 0.66],
  ['AED', 2, 0.27],
];

/** Currencies by ISO code. */
export const CURRENCIES: ReadonlyMap<string, Currency> = new Map(
  rows.map(([code, minorDigits, usdPerUnit]) => [code, { code, minorDigits, usdPerUnit }]),
);

/** Selling currency by point-of-sale country; anything else sells in USD. */
export const CURRENCY_BY_COUNTRY: Readonly<Record<string, string>> = {
  US: 'USD',
  PA: 'USD',
  EC: 'USD',
  CA: 'CAD',
  MX: 'MXN',
  BR: 'BRL',
  AR: 'ARS',
  CL: 'CLP',
  CO: 'COP',
  PE: 'PEN',
  UY: 'UYU',
  PY: 'PYG',
  GB: 'GBP',
  CH: 'CHF',
  FR: 'EUR',
  DE: 'EUR',
  ES: 'EUR',
  IT: 'EUR',
  NL: 'EUR',
  PT: 'EUR',
  JP: 'JPY',
  AU: 'AUD',
  AE: 'AED',
};

/** Reference data the generator draws from: real codes, so receivers can look them up. */
export { AIRLINES, AIRLINES_BY_CODE, type Airline } from './airlines.js';
export { AIRPORTS, AIRPORTS_BY_CODE, type Airport, distanceKm } from './airports.js';
export { CURRENCIES, CURRENCY_BY_COUNTRY, type Currency } from './money.js';
export { CARRIER_SURCHARGES, DEPARTURE_TAXES, type TaxCode } from './tax-codes.js';

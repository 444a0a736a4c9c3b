/**
 * Airports the generator flies between, with their real IATA codes and countries (faker airports
 * carry no country). `utcOffsetHours` is the standard offset, used to print Segment local times;
 * latitude/longitude give plausible flight durations.
 */
export interface Airport {
  code: string;
  country: string;
  utcOffsetHours: number;
  lat: number;
  lon: number;
}

const rows: Array<[string, string, number, number, number]> = [
  ['JFK', 'US', -5, 40.64, -73.78],
  ['LAX', 'US', -8, 33.94, -118.41],
  ['MIA', 'US', -5, 25.79, -80.29],
  ['ORD', 'US', -6, 41.97, -87.91],
  ['ATL', 'US', -5, 33.64, -84.43],
  ['DFW', 'US', -6, 32.9, -97.04],
  ['SFO', 'US', -8, 37.62, -122.38],
  ['YYZ', 'CA', -5, 43.68, -79.63],
  ['MEX', 'MX', -6, 19.44, -99.07],
  ['CUN', 'MX', -5, 21.04, -86.87],
  ['PTY', 'PA', -5, 9.07, -79.38],
  ['BOG', 'CO', -5, 4.7, -74.15],
  ['MDE', 'CO', -5, 6.16, -75.42],
  ['UIO', 'EC', -5, -0.13, -78.36],
  ['LIM', 'PE', -5, -12.02, -77.11],
  ['SCL', 'CL', -4, -33.39, -70.79],
  ['EZE', 'AR', -3, -34.82, -58.54],
  ['AEP', 'AR', -3, -34.56, -58.42],
  ['COR', 'AR', -3, -31.32, -64.21],
  ['MVD', 'UY', -3, -34.84, -56.03],
  ['ASU', 'PY', -3, -25.24, -57.52],
  ['GRU', 'BR', -3, -23.43, -46.47],
  ['GIG', 'BR', -3, -22.81, -43.25],
  ['BSB', 'BR', -3, -15.87, -47.92],
  ['VCP', 'BR', -3, -23.01, -47.13],
  ['LHR', 'GB', 0, 51.47, -0.45],
  ['CDG', 'FR', 1, 49.01, 2.55],
  ['FRA', 'DE', 1, 50.03, 8.56],
  ['MUC', 'DE', 1, 48.35, 11.79],
  ['MAD', 'ES', 1, 40.49, -3.57],
  ['BCN', 'ES', 1, 41.3, 2.08],
  ['FCO', 'IT', 1, 41.8, 12.25],
  ['AMS', 'NL', 1, 52.31, 4.76],
  ['LIS', 'PT', 0, 38.77, -9.13],
  ['ZRH', 'CH', 1, 47.46, 8.55],
  ['IST', 'TR', 3, 41.26, 28.74],
  ['DXB', 'AE', 4, 25.25, 55.36],
  ['DOH', 'QA', 3, 25.27, 51.61],
  ['ADD', 'ET', 3, 8.98, 38.8],
  ['NRT', 'JP', 9, 35.77, 140.39],
  ['HKG', 'HK', 8, 22.31, 113.91],
  ['SIN', 'SG', 8, 1.36, 103.99],
  ['SYD', 'AU', 10, -33.95, 151.18],
];

/** Every airport of the reference table. */
export const AIRPORTS: readonly Airport[] = rows.map(([code, country, utcOffsetHours, lat, lon]) => ({
  code,
  country,
  utcOffsetHours,
  lat,
  lon,
}));

/** Airports by IATA code. */
export const AIRPORTS_BY_CODE: ReadonlyMap<string, Airport> = new Map(AIRPORTS.map((a) => [a.code, a]));

const EARTH_RADIUS_KM = 6371;

/** Great-circle distance between two airports in kilometres. */
export function distanceKm(from: Airport, to: Airport): number {
  const rad = Math.PI / 180;
  const dLat = (to.lat - from.lat) * rad;
  const dLon = (to.lon - from.lon) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(from.lat * rad) * Math.cos(to.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

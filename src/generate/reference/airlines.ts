/**
 * Airlines with their real IATA designators and 3-digit ticketing (accounting) prefixes; ticket
 * numbers are the prefix followed by 10 digits. Hubs are airports of airports.ts.
 */
export interface Airline {
  code: string;
  prefix: string;
  hubs: readonly string[];
}

const rows: Array<[string, string, string[]]> = [
  ['AA', '001', ['DFW', 'MIA', 'JFK', 'ORD']],
  ['DL', '006', ['ATL', 'JFK', 'LAX']],
  ['UA', '016', ['ORD', 'SFO']],
  ['AC', '014', ['YYZ']],
  ['AM', '139', ['MEX']],
  ['CM', '230', ['PTY']],
  ['AV', '134', ['BOG']],
  ['LA', '045', ['SCL', 'LIM', 'GRU']],
  ['JJ', '957', ['GRU', 'BSB']],
  ['G3', '127', ['GRU', 'GIG']],
  ['AD', '577', ['VCP', 'BSB']],
  ['AR', '044', ['AEP', 'EZE']],
  ['IB', '075', ['MAD']],
  ['UX', '996', ['MAD']],
  ['AF', '057', ['CDG']],
  ['KL', '074', ['AMS']],
  ['LH', '220', ['FRA', 'MUC']],
  ['BA', '125', ['LHR']],
  ['AZ', '055', ['FCO']],
  ['TP', '047', ['LIS']],
  ['LX', '724', ['ZRH']],
  ['TK', '235', ['IST']],
  ['EK', '176', ['DXB']],
  ['QR', '157', ['DOH']],
  ['ET', '071', ['ADD']],
  ['JL', '131', ['NRT']],
  ['CX', '160', ['HKG']],
  ['SQ', '618', ['SIN']],
  ['QF', '081', ['SYD']],
];

/** Every airline of the reference table. */
export const AIRLINES: readonly Airline[] = rows.map(([code, prefix, hubs]) => ({ code, prefix, hubs }));

/** Airlines by IATA designator. */
export const AIRLINES_BY_CODE: ReadonlyMap<string, Airline> = new Map(AIRLINES.map((a) => [a.code, a]));

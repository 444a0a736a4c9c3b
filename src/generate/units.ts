/** Money and time helpers: amounts are computed in integer minor units so sums are exact. */
import { HOUR_MS } from '../clock/schedule.js';
import type { Currency } from './reference/index.js';

/** A US-dollar amount converted to whole minor units of `currency`. */
export function usdToMinor(usd: number, currency: Currency): number {
  return Math.max(0, Math.round((usd / currency.usdPerUnit) * 10 ** currency.minorDigits));
}

/**
 * Integer digits a ticket or passenger amount may have (spec "Limits"): decimal(16,8), i.e. at most
 * 16 − 8 digits before the point (Payment.Amount is decimal(20,8)).
 */
export const AMOUNT_INTEGER_DIGITS = 8;

/** The largest amount with `integerDigits` integer digits, in minor units of `currency`. */
export function largestMinor(integerDigits: number, currency: Currency): number {
  return 10 ** (integerDigits + currency.minorDigits) - 1;
}

/** Minor units as the JSON number the body carries (e.g. 57050 USD cents → 570.5). */
export function toAmount(minor: number, currency: Currency): number {
  return minor / 10 ** currency.minorDigits;
}

/** A JSON amount back to minor units of `currency` (for consistency checks). */
export function toMinor(amount: number, currency: Currency): number {
  return Math.round(amount * 10 ** currency.minorDigits);
}

/** Minor units as text with the currency's decimals (for RawData). */
export function formatAmount(minor: number, currency: Currency): string {
  return toAmount(minor, currency).toFixed(currency.minorDigits);
}

export const MINUTE_MS = 60_000;
export { HOUR_MS };
export const DAY_MS = 24 * HOUR_MS;

/** An instant as a Zulu datetime with whole seconds, e.g. 2026-04-27T10:00:00Z. */
export function zulu(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/**
 * A UTC instant printed as local time at `offsetHours`, `yyyy-MM-ddTHH:mm:ss`
 * (spec "Segment (each element)").
 */
export function localTime(utcMs: number, offsetHours: number): string {
  return new Date(utcMs + offsetHours * HOUR_MS).toISOString().slice(0, 19);
}

/** Parses a `yyyy-MM-ddTHH:mm:ss` local time at `offsetHours` back to a UTC instant. */
export function localToUtcMs(local: string, offsetHours: number): number {
  return Date.parse(`${local}Z`) - offsetHours * HOUR_MS;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** GDS-style date `12MAY` (or `12MAY26` with the year) from an ISO-like string. */
export function gdsDate(iso: string, withYear = false): string {
  const month = MONTHS[Number(iso.slice(5, 7)) - 1] ?? '???';
  return `${iso.slice(8, 10)}${month}${withYear ? iso.slice(2, 4) : ''}`;
}

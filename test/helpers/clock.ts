/**
 * The emulator start instant of the tests that run a manual clock: a Monday morning, far from any
 * minute 55, in the week the provider's examples are dated.
 */
export const CLOCK_START = '2026-04-27T10:00:00Z';

/**
 * Deadlines of the suite's waits (issue 39 §5). A wait ends on its event; its deadline only bounds a
 * wait that would never end, so it sits far above the slowest machine seen (a test at load ~21 on
 * two cores took over 60 s). A wait that runs out says what it waited for and how loaded the
 * machine was, so a failure caused by load reads as one.
 */
import { availableParallelism, loadavg } from 'node:os';

/** Default deadline of a test and of a hook (vitest.config.ts). */
export const TEST_DEADLINE_MS = 300_000;

/** Default deadline of one wait inside a test: a process's line, a settled delivery, a stream event. */
export const WAIT_DEADLINE_MS = 120_000;

/** `load average 5.1, 4.2, 3.0 on 2 cores`. */
export function loadNote(): string {
  return `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')} on ${availableParallelism()} cores`;
}

/** The error of a wait that ran out: what it waited for, how long, and the load. */
export function waitExpired(what: string, ms: number, detail = ''): Error {
  return new Error(`waited ${ms} ms for ${what} (${loadNote()})${detail ? `\n${detail}` : ''}`);
}

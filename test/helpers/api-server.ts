import { expect } from 'vitest';
import type { SettingsInput } from '../../src/config/index.js';
import { type RunningEmulator, startServer } from '../../src/server.js';

import { CLOCK_START } from './clock.js';

export { CLOCK_START };
/** CLOCK_START + 8 h, as .NET formats it. */
export const EXPIRES_AT = '2026-04-27T18:00:00Z';

/** Users every API test starts with: one for both versions, one per version. */
export const USERS = {
  alice: {
    username: 'alice',
    password: ' 00123 ',
    idWeb: 1001,
    webDescription: 'Agencia Alfa',
    versions: ['1.6', '1.7'],
  },
  old16: {
    username: 'old16',
    password: 'pw16',
    idWeb: 1602,
    webDescription: 'Only Sixteen',
    versions: ['1.6'],
  },
  new17: {
    username: 'new17',
    password: 'pw17',
    idWeb: 1703,
    webDescription: 'Only Seventeen',
    versions: ['1.7'],
  },
} as const;

export type TestUser = (typeof USERS)[keyof typeof USERS];

/** A real emulator on a loopback port with a manual clock and the test users preloaded. */
export function startApiServer(settings: SettingsInput = {}): Promise<RunningEmulator> {
  return startServer(
    { port: 0, clock: 'manual', clockStart: CLOCK_START, logLevel: 'silent', seed: 7, ...settings },
    {},
    { users: Object.values(USERS).map((u) => ({ ...u, versions: [...u.versions] })) },
  );
}

/** POSTs a body with the given Content-Type (none when `type` is null). */
export function post(
  url: string,
  body: string | Uint8Array | undefined,
  type: string | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...(type === null ? {} : { 'content-type': type }), ...headers },
    ...(body === undefined ? {} : { body }),
    redirect: 'manual',
  });
}

/** Asserts X-API-Version always, and the X-API-User-* headers exactly when the user was authenticated. */
export function expectApiHeaders(res: Response, version: '1.6' | '1.7', user: TestUser | null): void {
  expect(res.headers.get('x-api-version')).toBe(version === '1.6' ? '1.6.0.0' : '1.7.0.0');
  expect(res.headers.get('x-api-user-idweb')).toBe(user ? String(user.idWeb) : null);
  expect(res.headers.get('x-api-user-webdescription')).toBe(user ? user.webDescription : null);
}

/** Tokens are 32 lower-case hex characters, the first a letter (never a digit, unlike an error). */
export const TOKEN = /^[a-f][0-9a-f]{31}$/;

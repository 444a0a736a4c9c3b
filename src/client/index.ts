/** Typed client of the emulator's admin API: the programmatic way to drive a running emulator. */
export { AdminClient, type AdminClientOptions } from './client.js';
export { AdminApiError, AdminUnreachableError } from './errors.js';
export type * from './types.js';

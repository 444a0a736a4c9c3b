/** What happened in the emulator, published to the live stream and the info log. */
export type { Activity } from './types.js';

/** What happened in the emulator, published to the live stream and the info log. */
export { ActivityBus } from './bus.js';
export type { Activity, ActivityKind, ActivityListener, AdminChange } from './types.js';

/** Programmatic API of reportbo-emulator. */
export { createApp } from './app.js';
export type { Clock, ClockMode } from './clock/index.js';
export { createClock } from './clock/index.js';
export type { Settings, SettingsInput } from './config/index.js';
export {
  BOOKING_STATUSES,
  type BookingStatus,
  type NotificationBody,
  NotificationBodySchema,
  NotificationBodyStrictSchema,
  notificationJsonSchema,
} from './contract/index.js';
export { createEmulator, type Emulator, type EmulatorDeps } from './emulator.js';
export { EmulatorError } from './errors.js';
export {
  type GeneratedEvent,
  type GenerateNotificationOptions,
  generateNotification,
} from './generate/index.js';
export { type StartEmulatorOptions, type StartedEmulator, startEmulator } from './programmatic/index.js';
export { type RunningEmulator, startServer } from './server.js';

/** Programmatic API of reportbo-emulator. */
export { createApp } from './app.js';
export {
  AdminApiError,
  AdminClient,
  type AdminClientOptions,
  AdminUnreachableError,
} from './client/index.js';
export type * as AdminTypes from './client/types.js';
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
export {
  loadScenarioFile,
  parseScenario,
  type RunOptions,
  runScenario,
  type Scenario,
  ScenarioFileError,
  type ScenarioResult,
  ScenarioSchema,
  scenarioJsonSchema,
} from './scenarios/index.js';
export { type RunningEmulator, startServer } from './server.js';
export {
  CASE_IDS,
  type CaseId,
  type CaseResult,
  type CaseStatus,
  type Evidence,
  type VerifyListener,
  type VerifyOptions,
  type VerifyReport,
  verifyReceiver,
} from './verify/index.js';
export {
  CLIENT_CASE_IDS,
  type ClientCaseId,
  type ClientCaseResult,
  type ClientListener,
  type ClientOptions,
  type ClientReport,
  verifyClient,
} from './verify-client/index.js';

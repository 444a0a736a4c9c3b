/** `startEmulator`: an in-process emulator for users' test suites, with typed admin helpers. */
export { type StartEmulatorOptions, type StartedEmulator, startEmulator } from './start.js';

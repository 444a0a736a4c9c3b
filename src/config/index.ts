export { effectiveConfig } from './effective.js';
export {
  checkConfigKeys,
  envVariableOf,
  readStructuredFile,
  resolveSettings,
  settingsFromEnv,
  settingsFromFlags,
} from './load.js';
export { OPTION_NAMES, type SettingNames, type SettingOrigin, serveNames } from './names.js';
export { SERVE_OPTIONS } from './options.js';
export type { Settings, SettingsInput } from './schema.js';

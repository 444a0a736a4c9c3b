export { type EffectiveConfig, effectiveConfig } from './effective.js';
export { readStructuredFile, resolveSettings, settingsFromEnv, settingsFromFlags } from './load.js';
export {
  OPTION_NAMES,
  type SettingNames,
  type SettingOrigin,
  scenarioNames,
  serveNames,
} from './names.js';
export { type OptionSpec, SERVE_OPTIONS } from './options.js';
export { type Settings, type SettingsInput, SettingsSchema } from './schema.js';

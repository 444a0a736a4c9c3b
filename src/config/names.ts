import { SERVE_OPTIONS } from './options.js';

/**
 * How messages name a setting to the person who gave it: as a flag or an environment variable to a
 * `serve` user, as `settings.caFile in s.yaml` to a scenario author, as an option to a caller of
 * `startEmulator`. A message never names a flag the user did not type (decision 0019).
 */
export interface SettingNames {
  /** Where the value of `key` was given, e.g. `--ca-file`, `REPORTBO_CA_FILE`, `settings.caFile in s.yaml`. */
  name(key: string): string;
  /** How to give `key` the value `value`, as an instruction: `start serve with --allow-http (…)`. */
  howToSet(key: string, value: string): string;
}

/** The names of a programmatic caller (`startEmulator`, `createEmulator`): the option keys. */
export const OPTION_NAMES: SettingNames = {
  name: (key) => `option ${key}`,
  howToSet: (key, value) => `pass the option ${key}: ${value}`,
};

/** Where a `serve` setting came from. */
export type SettingOrigin =
  | { kind: 'flag' }
  | { kind: 'option' }
  | { kind: 'env'; variable: string }
  | { kind: 'file'; file: string; path: string };

/** A scenario author's names: the `settings` mapping of the scenario file. */
export function scenarioNames(file: string): SettingNames {
  return {
    name: (key) => `settings.${key} in ${file}`,
    howToSet: (key, value) => `set settings.${key}: ${value} in ${file}`,
  };
}

/**
 * A `serve` user's names: each setting by where it was given (flag, environment variable, config or
 * scenario file); a setting not given is named by its flag and environment variables.
 * `scenarioFile` adds the scenario's own setting to instructions, for settings a scenario may hold.
 * `shell` 'startEmulator' names what was not given in a file as the caller's options instead.
 */
export function serveNames(
  origins: ReadonlyMap<string, SettingOrigin>,
  scenario?: { file: string; keys: ReadonlySet<string> },
  shell: 'serve' | 'startEmulator' = 'serve',
): SettingNames {
  const spec = (key: string) => SERVE_OPTIONS.find((o) => o.key === key);
  const flagOf = (key: string) => spec(key)?.flag.split(' ')[0] ?? key;
  return {
    name(key) {
      const origin = origins.get(key);
      if (origin?.kind === 'file') return `${origin.path} in ${origin.file}`;
      if (shell === 'startEmulator' || origin?.kind === 'option') return OPTION_NAMES.name(key);
      if (origin?.kind === 'flag') return flagOf(key);
      if (origin?.kind === 'env') return `environment variable ${origin.variable}`;
      const envs = spec(key)?.env ?? [];
      return envs.length ? `${flagOf(key)} (env ${envs.join(' or ')})` : flagOf(key);
    },
    howToSet(key, value) {
      const inScenario =
        scenario?.keys.has(key) === true ? `, or set settings.${key}: ${value} in ${scenario.file}` : '';
      if (shell === 'startEmulator') return `${OPTION_NAMES.howToSet(key, value)}${inScenario}`;
      const s = spec(key);
      const envs = s?.env ?? [];
      const flag = s?.kind === 'boolean' && value === 'true' ? flagOf(key) : `${flagOf(key)} ${value}`;
      const env = envs.length ? ` (env ${envs.map((e) => `${e}=${value}`).join(' or ')})` : '';
      return `start serve with ${flag}${env}${inScenario}`;
    },
  };
}

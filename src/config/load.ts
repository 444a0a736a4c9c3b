import { readFile } from 'node:fs/promises';
import { formatPath, InputError } from '../errors.js';
import { unknownKeyMessage } from './closest-key.js';
import { OPTION_NAMES, type SettingNames } from './names.js';
import type { OptionSpec } from './options.js';
import { SERVE_OPTIONS } from './options.js';
import { DEFAULT_BASE_PATHS, type Settings, SettingsSchema } from './schema.js';

type Raw = Record<string, unknown>;

/**
 * The variable that gives `spec` its value: the first one set, an empty `REPORTBO_…` value included
 * (refused as the flag refuses it, never read as unset); an empty `PORT` is the platform's, not ours.
 */
export function envVariableOf(spec: OptionSpec, env: NodeJS.ProcessEnv): string | undefined {
  return spec.env.find((n) => env[n] !== undefined && (env[n] !== '' || n.startsWith(ENV_PREFIX)));
}

/**
 * Reads the settings an environment carries (`REPORTBO_…`, `PORT`), converting each to its kind. A
 * `REPORTBO_…` variable that names no setting is refused like a config file's unknown key, naming the
 * closest variable that does: `REPORTBO_ADMIN_TOKN=secret` would otherwise start with no token.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Raw {
  checkEnvNames(env);
  const out: Raw = {};
  for (const spec of SERVE_OPTIONS) {
    const name = envVariableOf(spec, env);
    if (name) out[spec.key] = convert(spec, env[name]!, `environment variable ${name}`);
  }
  return out;
}

/** Converts command-line option values (strings from commander) to their kinds. */
export function settingsFromFlags(flags: Raw): Raw {
  const out: Raw = {};
  for (const spec of SERVE_OPTIONS) {
    const value = flags[spec.key];
    if (value === undefined) continue;
    out[spec.key] =
      typeof value === 'string' ? convert(spec, value, `option ${spec.flag.split(' ')[0]}`) : value;
  }
  return out;
}

const ENV_PREFIX = 'REPORTBO_';
/**
 * Variables with the prefix that this repository's test suite and CI read, not the emulator: never
 * refused (test/config-ci-env.test.ts checks that every one .ci/run sets is a setting or listed here).
 */
export const NOT_SETTINGS: ReadonlySet<string> = new Set([
  'REPORTBO_TEST_TOOL_CACHE',
  'REPORTBO_BROWSER_TESTS',
  'REPORTBO_TEST_IMAGE',
  'REPORTBO_FOREIGN_SOAP_CLIENTS',
]);

/** Refuses the first `REPORTBO_…` variable that matches no setting, naming the closest that does. */
function checkEnvNames(env: NodeJS.ProcessEnv): void {
  const known = SERVE_OPTIONS.flatMap((o) => o.env).filter((name) => name.startsWith(ENV_PREFIX));
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(ENV_PREFIX) || known.includes(name) || NOT_SETTINGS.has(name)) continue;
    throw new InputError(
      'invalid_setting',
      `${unknownKeyMessage('environment variable', name, known)}: it would set nothing; unset it or use one of ${known.join(', ')}.`,
      { path: name, accepted: known },
    );
  }
}

/**
 * Refuses keys of a config file that name no setting (`adminTokn: secret` would leave the admin API
 * open without a word), naming the closest valid key. `lists`: keys valid beside the settings.
 */
export function checkConfigKeys(
  file: string,
  content: Raw,
  prefix: '' | 'settings.',
  lists: readonly string[],
): void {
  const valid = [...SERVE_OPTIONS.map((o) => o.key), ...lists];
  for (const key of Object.keys(content)) {
    if (valid.includes(key)) continue;
    throw new InputError(
      'invalid_setting',
      `${file}: ${prefix}${key}: ${unknownKeyMessage('setting', key, valid)}; a config file takes ${valid.join(', ')}.`,
      { file, path: `${prefix}${key}`, accepted: valid },
    );
  }
}

/** Digits only: `0x50`, `1e3`, `8080.0` or ` 80` name no port a user meant to give. */
const DIGITS = /^\d+$/;

function convert(spec: OptionSpec, value: string, where: string): unknown {
  if (spec.kind === 'number') {
    if (!DIGITS.test(value)) {
      throw new InputError(
        'invalid_setting',
        `${where}: "${value}" is not a whole number (digits 0-9 only).`,
        {
          path: spec.key,
        },
      );
    }
    return Number(value);
  }
  if (spec.kind === 'boolean') {
    const v = value.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    throw new InputError('invalid_setting', `${where}: "${value}" is not a boolean.`, {
      path: spec.key,
      accepted: ['true', 'false', '1', '0', 'yes', 'no'],
    });
  }
  return value;
}

/** A JSON or YAML file's parsed content, with a clear error for an unreadable or malformed file. */
export async function readStructuredFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new InputError('file_unreadable', `${file}: cannot read it (${reason}).`, { file });
  }
  // yaml is ~70 CommonJS modules (~15 ms): imported only for a YAML file, not on every start.
  const parse: (text: string) => unknown = file.endsWith('.json')
    ? JSON.parse
    : (await import('./yaml-parse.js')).parse;
  try {
    return parse(text);
  } catch (err) {
    throw new InputError(
      'file_malformed',
      `${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message}`,
      { file },
    );
  }
}

/**
 * Validates settings; `names` names each one in errors the way its user gave it (a flag, an
 * environment variable, a file's key, an option).
 */
export function resolveSettings(input: Raw, names: SettingNames = OPTION_NAMES): Settings {
  const merged: Raw = {};
  for (const [k, v] of Object.entries(input)) if (v !== undefined) merged[k] = v;
  const parsed = SettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0];
    const where = typeof key === 'string' ? names.name(key) : formatPath(issue.path);
    throw new InputError('invalid_setting', `Setting ${where}: ${issue.message}.`, {
      path: formatPath(issue.path),
    });
  }
  const settings = parsed.data;
  checkBasePaths(settings, names);
  if (settings.clockStart !== undefined && settings.clock === 'real') {
    throw new InputError(
      'invalid_setting',
      `${names.name('clockStart')} needs a compressed or manual clock (a real clock is wall time): ${names.howToSet('clock', 'manual')}.`,
      { path: 'clockStart' },
    );
  }
  return settings;
}

/**
 * A base path the admin API or the other version would answer in place of GetAccessToken is
 * refused: under `/__admin` the admin API takes every request first; two equal base paths (paths
 * match case-insensitively) leave one version unreachable.
 */
function checkBasePaths(settings: Settings, names: SettingNames): void {
  const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p).toLowerCase();
  for (const key of ['basePath16', 'basePath17'] as const) {
    const path = norm(settings[key]);
    if (path === '/__admin' || path.startsWith('/__admin/'))
      throw new InputError(
        'invalid_setting',
        `Setting ${names.name(key)}: "${settings[key]}" is under /__admin, where the admin API answers first; choose another path (default ${DEFAULT_BASE_PATHS[key === 'basePath16' ? '1.6' : '1.7']}).`,
        { path: key },
      );
  }
  if (norm(settings.basePath16) === norm(settings.basePath17))
    throw new InputError(
      'invalid_setting',
      `Setting ${names.name('basePath17')}: "${settings.basePath17}" is also the 1.6 base path (${names.name('basePath16')}), so one version would answer for both; give each version its own path.`,
      { path: 'basePath17' },
    );
}

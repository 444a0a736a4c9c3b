import { readFile } from 'node:fs/promises';
import { formatPath, InputError } from '../errors.js';
import { OPTION_NAMES, type SettingNames } from './names.js';
import type { OptionSpec } from './options.js';
import { SERVE_OPTIONS } from './options.js';
import { type Settings, SettingsSchema } from './schema.js';

type Raw = Record<string, unknown>;

/** Reads the settings an environment carries (`REPORTBO_…`, `PORT`), converting each to its kind. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Raw {
  const out: Raw = {};
  for (const spec of SERVE_OPTIONS) {
    const name = spec.env.find((n) => env[n] !== undefined && env[n] !== '');
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

function convert(spec: OptionSpec, value: string, where: string): unknown {
  if (spec.kind === 'number') {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) {
      throw new InputError('invalid_setting', `${where}: "${value}" is not a number.`, { path: spec.key });
    }
    return n;
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
  const parse: (text: string) => unknown = file.endsWith('.json') ? JSON.parse : (await import('yaml')).parse;
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
  if (settings.clockStart !== undefined && settings.clock === 'real') {
    throw new InputError(
      'invalid_setting',
      `${names.name('clockStart')} needs a compressed or manual clock (a real clock is wall time): ${names.howToSet('clock', 'manual')}.`,
      { path: 'clockStart' },
    );
  }
  return settings;
}

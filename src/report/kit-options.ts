/**
 * What `verify` and `verify-client` check alike in their options: how an error names an option (a
 * flag on the command line, a member in JSON), how a schema's refusal is worded, and `--only`.
 */
import { formatPath, InputError } from '../errors.js';
import type { Refusal } from '../model/refusal.js';

/** How errors name an option: `--api-key` on the command line, `apiKey` in JSON. */
export type OptionNaming = 'cli' | 'json';

/** A kit's options: their flags by JSON member, and what a missing required one is told. */
export interface KitOptions {
  /** The refusal's error code, e.g. `verify_options_invalid`. */
  code: string;
  /** The flag of each JSON member (`apiKey` → `--api-key`). */
  flags: Readonly<Record<string, string>>;
  /** What to give for a missing required member. */
  required: (key: string) => string;
  /** Whether an unknown member's error lists the accepted ones. */
  listAccepted?: boolean;
}

/** The name of option `key` as `naming` says it. */
export function optionName(kit: KitOptions, naming: OptionNaming): (key: string) => string {
  return (key) => (naming === 'cli' ? (kit.flags[key] ?? key) : key);
}

/** How options their schema refuses are answered, naming each as `naming` does. */
export function kitRefusal(kit: KitOptions, naming: OptionNaming): Refusal {
  const name = optionName(kit, naming);
  return {
    code: kit.code,
    words: (issue, message) => {
      const key = String(issue.path[0] ?? '');
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      const what = key ? name(key) : formatPath(issue.path);
      const accepted = kit.listAccepted ? ` (accepted: ${Object.keys(kit.flags).join(', ')})` : '';
      return {
        message: missing
          ? `${what} is required: ${kit.required(key)}.`
          : issue.code === 'unrecognized_keys'
            ? `${message}${accepted}.`
            : `${what}: ${message}.`,
        details: { path: formatPath(issue.path) },
      };
    },
  };
}

/** The case ids `only` names (all of `ids` when absent); an unknown or empty list is refused with `code`. */
export function selectCases<T extends string>(
  only: string | string[] | undefined,
  ids: readonly T[],
  code: string,
  flag: string,
): ReadonlySet<T> {
  if (only === undefined) return new Set(ids);
  const given = (Array.isArray(only) ? only : only.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  const unknown = given.filter((id) => !(ids as readonly string[]).includes(id));
  if (given.length === 0 || unknown.length > 0) {
    throw new InputError(
      code,
      `${flag}: ${given.length === 0 ? 'no case id given' : `unknown case id${unknown.length === 1 ? '' : 's'} ${unknown.map((u) => `"${u}"`).join(', ')}`}; accepted: ${ids.join(', ')}.`,
      { path: 'only', accepted: ids },
    );
  }
  return new Set(given as T[]);
}

import { type OptionSpec, SERVE_OPTIONS } from '../config/options.js';

/** Serve options by long name (`port`, `hour-ms`, …) and whether each takes a value. */
const BY_NAME = new Map<string, { spec: OptionSpec; takesValue: boolean }>(
  SERVE_OPTIONS.map((spec) => {
    const [flag = '', arg] = spec.flag.split(' ');
    return [flag.slice(2), { spec, takesValue: arg !== undefined }];
  }),
);

/**
 * The flags of a plain `serve` run — `[serve] [--option value | --option=value | --switch]…` with
 * known options only — read without loading commander (~10 ms of every start). Anything else
 * (help, version, other commands, unknown or malformed options, a value starting with `-`) answers
 * undefined, and commander parses it and reports what is wrong, as it always did. The keys are those
 * commander gives the same arguments (checked by plain-serve.test.ts).
 */
export function plainServeFlags(argv: readonly string[]): Record<string, unknown> | undefined {
  const args = argv[0] === 'serve' ? argv.slice(1) : argv;
  const flags: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z0-9-]+)(?:=(.+))?$/s.exec(args[i]!);
    const option = m ? BY_NAME.get(m[1]!) : undefined;
    if (!m || !option) return undefined;
    if (!option.takesValue) {
      if (m[2] !== undefined) return undefined;
      flags[option.spec.key] = true;
      continue;
    }
    const value = m[2] ?? args[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    flags[option.spec.key] = value;
  }
  return flags;
}

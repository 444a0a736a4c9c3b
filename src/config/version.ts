import { readFileSync } from 'node:fs';

let version: string | undefined;

/**
 * The package's version, read from package.json once, on first use (health, `--version`, the
 * OpenAPI document). The file sits two levels above every compiled module that reads it
 * (`dist/config/`, and the CommonJS bundle in `dist/cjs/`).
 */
export function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return version;
}

/** What the kits' commands (`verify`, `verify-client`) do alike with their flags. */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';

/**
 * Makes the folders of the report files before the run, so an unwritable path fails at once, not
 * after it. `files` pairs each flag with its file (absent when the flag was not given).
 */
export async function makeReportFolders(
  files: ReadonlyArray<readonly [string, string | undefined]>,
): Promise<void> {
  for (const [flag, file] of files) {
    if (file === undefined) continue;
    await mkdir(dirname(file), { recursive: true }).catch((err: NodeJS.ErrnoException) => {
      throw new InputError(
        'report_unwritable',
        `${flag} ${file}: cannot create its folder (${err.code ?? err.message}).`,
      );
    });
  }
}

/** A whole-number flag as its option (`{ key: n }`), none when absent; `code` is the command's error code. */
export function wholeNumberFlag(
  code: string,
  flag: string,
  key: string,
  value: string | undefined,
): Record<string, number> {
  if (value === undefined) return {};
  if (!/^\d+$/.test(value.trim()))
    throw new InputError(code, `${flag}: "${value}" is not a whole number.`, { path: key });
  return { [key]: Number(value) };
}

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';

/**
 * Writes a report file (`--junit`, `--json`), creating its folders (`--junit reports/x.xml` in a
 * fresh CI checkout). A report that cannot be written is an InputError naming the flag and file.
 */
export async function writeReport(flag: string, file: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new InputError(
      'report_unwritable',
      `${flag} ${file}: cannot write the report (${e.code ?? e.message}); choose a writable path.`,
      { path: flag },
    );
  }
}

import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';

/** `schema`: prints (or writes) the JSON Schema of the notification body. */
export function registerSchemaCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('schema')
    .description(
      'print the JSON Schema (draft 2020-12) of the notification body, derived from the zod contract',
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (flags: { out?: string }) => {
      const { notificationJsonSchemaText } = await import('../contract/index.js');
      const text = notificationJsonSchemaText();
      if (flags.out) await writeFile(flags.out, text);
      else process.stdout.write(text);
      setExit(0);
    });
}

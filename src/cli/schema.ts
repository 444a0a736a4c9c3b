import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';

/** What `schema --format` prints, and the docs/ file that holds each (`npm run schema:write`). */
export const SCHEMA_FORMATS = {
  'json-schema': 'docs/notification.schema.json',
  openapi: 'docs/notification.openapi.json',
  asyncapi: 'docs/notification.asyncapi.json',
} as const;
export type SchemaFormat = keyof typeof SCHEMA_FORMATS;

/** The text of one contract document, exactly as its docs/ file holds it. */
export async function schemaText(format: SchemaFormat): Promise<string> {
  const { notificationJsonSchemaText } = await import('../contract/index.js');
  if (format === 'json-schema') return notificationJsonSchemaText();
  const { documentText, notificationAsyncApiDocument, notificationOpenApiDocument } = await import(
    '../contract/documents.js'
  );
  return documentText(format === 'openapi' ? notificationOpenApiDocument() : notificationAsyncApiDocument());
}

/** `schema`: prints (or writes) the notification contract as JSON Schema, OpenAPI 3.1 or AsyncAPI 3.0. */
export function registerSchemaCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('schema')
    .description(
      'print the notification contract, derived from the zod schema: the JSON Schema (draft 2020-12) of the body, an OpenAPI 3.1 document with a webhooks section, or an AsyncAPI 3.0 document',
    )
    .addOption(
      new Option('--format <format>', 'which document')
        .choices(Object.keys(SCHEMA_FORMATS))
        .default('json-schema'),
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (flags: { out?: string; format: SchemaFormat }) => {
      const text = await schemaText(flags.format);
      if (flags.out) await writeFile(flags.out, text);
      else process.stdout.write(text);
      setExit(0);
    });
}

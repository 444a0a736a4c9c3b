/** A receiver credential's input shape (zod), for src/delivery, the admin contract and the data dir's records alike. */
import { z } from 'zod';

/**
 * Why `apiKey` cannot travel in `Authorization: Bearer <apiKey>`, or undefined when it can. A header
 * value carries tab, space, visible ASCII and obs-text (RFC 9110 §5.5): Latin-1, never a line break.
 */
export function apiKeyProblem(apiKey: string): string | undefined {
  let position = 0;
  for (const char of apiKey) {
    position++;
    const code = char.codePointAt(0)!;
    const at = `at position ${position}`;
    if (code === 0x0d || code === 0x0a) {
      return `contains a line break (${code === 0x0d ? 'CR' : 'LF'}) ${at}; it is sent in the Authorization header, which cannot carry line breaks`;
    }
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) {
      return `contains the control character U+${hex(code)} ${at}; it is sent in the Authorization header, which cannot carry control characters`;
    }
    if (code > 0xff) {
      return `contains "${char}" (U+${hex(code)}) ${at}, outside Latin-1; it is sent in the Authorization header, whose values carry Latin-1 (ISO-8859-1) characters only`;
    }
  }
  return undefined;
}

function hex(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}

/** An ApiKey as every boundary takes it (admin API, config file, scenario file, startEmulator). */
export const ApiKeySchema = z
  .string()
  .trim()
  .min(1, 'the ApiKey must not be empty (spec "What the service does" 3: one ApiKey per credential)')
  .superRefine((key, ctx) => {
    const problem = apiKeyProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: `the ApiKey ${problem}` });
  });

/** Credential ids appear in URLs (`DELETE /__admin/credentials/:id`), so they stay URL-safe. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * A credential as the admin API and config files give it (product rule "Core concepts"). Filters are
 * optional; a filter that is given lists at least one value (an empty list would match nothing).
 */
export const CredentialInputSchema = z.strictObject({
  id: z
    .string()
    .regex(ID, 'expected 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit')
    .optional(),
  apiKey: ApiKeySchema,
  url: z.string().min(1, 'expected the receiver URL, e.g. https://receiver.example/hook'),
  filters: z
    .strictObject({
      pcc: z
        .array(z.string().trim().min(1, 'a PCC must not be empty'))
        .min(1, 'give at least one PCC or leave pcc out')
        .optional(),
      idWeb: z
        .array(z.number().int().nonnegative())
        .min(1, 'give at least one IdWeb or leave idWeb out')
        .optional(),
    })
    .optional(),
});

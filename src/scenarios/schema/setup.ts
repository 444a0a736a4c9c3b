import { z } from 'zod';
import { SettingsSchema } from '../../config/schema.js';
import { ApiKeySchema } from '../../delivery/credential-schema.js';
import { ApiVersion, Duration, Instant } from './common.js';

const S = SettingsSchema.shape;

/** Emulator settings a scenario may fix; the rest keep their defaults (or the target's values). */
export const ScenarioSettings = z
  .strictObject({
    responseTimeoutMs: S.responseTimeoutMs.unwrap().optional(),
    allowHttp: S.allowHttp.unwrap().optional(),
    acceptLowercaseKeys: S.acceptLowercaseKeys.unwrap().optional(),
    exchangeNotifies: S.exchangeNotifies.unwrap().optional(),
    deliveryConcurrency: S.deliveryConcurrency.unwrap().optional(),
    caFile: S.caFile,
    apiVersion16: S.apiVersion16.unwrap().optional(),
    apiVersion17: S.apiVersion17.unwrap().optional(),
    basePath16: S.basePath16.unwrap().optional(),
    basePath17: S.basePath17.unwrap().optional(),
  })
  .describe('emulator settings for this scenario (in-process runs); a --target keeps its own');

export const ClockSpec = z
  .strictObject({
    mode: z.enum(['manual', 'compressed', 'real']).default('manual'),
    start: Instant.default('2026-04-27T10:00:00Z'),
    hourMs: S.hourMs.unwrap().optional(),
  })
  .describe('the emulator clock; manual (the default) moves only with advance steps');

export const RECEIVER_PREFIX = 'receiver:';

/** Where a credential delivers: `receiver:<name>` (a built-in receiver) or any http(s) URL. */
export const CredentialUrl = z
  .string()
  .refine((u) => u.startsWith(RECEIVER_PREFIX) || /^https?:\/\/[^\s]+$/i.test(u), {
    message: 'expected receiver:<name> (a receiver of this scenario) or an https:// URL',
  });

export const CredentialSpec = z.strictObject({
  id: z.string().min(1).describe('credential id, referred to by expectations'),
  apiKey: ApiKeySchema.describe('sent as Authorization: Bearer <apiKey>'),
  url: CredentialUrl,
  filters: z
    .strictObject({
      pcc: z.array(z.string().min(1)).optional().describe('matches PCCBook or PCCIssue'),
      idWeb: z.array(z.number().int()).optional().describe('matches Product.IdWeb'),
    })
    .optional(),
});
export type CredentialSpec = z.infer<typeof CredentialSpec>;

export const UserSpec = z.strictObject({
  username: z.string().min(1),
  password: z.string(),
  idWeb: z.number().int(),
  webDescription: z.string(),
  versions: z.array(ApiVersion).default(['1.6', '1.7']).describe('API versions the user may call'),
});
export type UserSpec = z.infer<typeof UserSpec>;

const Status = z.number().int().min(200).max(599);

/**
 * What a built-in receiver does with one request. A number answers that status; `hang` never
 * answers; `reset` drops the connection before answering (`reset-after-headers` after the headers);
 * `endless` streams a body that never ends; objects answer slowly, redirect, or answer with a body.
 */
export const ReceiverAction = z.union(
  [
    Status,
    z.enum(['hang', 'reset', 'reset-after-headers', 'endless']),
    z.strictObject({ status: Status, body: z.string().optional() }),
    z.strictObject({ slow: Duration, status: Status.default(200) }),
    z.strictObject({
      redirect: z.string().min(1),
      status: z
        .union([z.literal(301), z.literal(302), z.literal(303), z.literal(307), z.literal(308)])
        .default(302),
    }),
  ],
  {
    error:
      'expected a status 200-599 (e.g. 200, 500), hang, reset, reset-after-headers, endless, {slow: 2s}, {status: 503, body: …} or {redirect: URL}',
  },
);
export type ReceiverAction = z.infer<typeof ReceiverAction>;

export const ReceiverSpec = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/i, 'expected letters, digits, "-" or "_"'),
  protocol: z.enum(['https', 'http']).default('https'),
  behaviour: z
    .union([ReceiverAction, z.array(ReceiverAction).min(1)])
    .default([200])
    .describe('one action for every request, or a list: request n gets item n, the last item repeats'),
});
export type ReceiverSpec = z.infer<typeof ReceiverSpec>;

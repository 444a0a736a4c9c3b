import { z } from 'zod';

/**
 * What a programmable receiver does with one request. Scenario files and tests use the same shapes,
 * so the schema below is the one source of the type.
 */
export const ReceiverBehaviourSchema = z.discriminatedUnion('kind', [
  /** Answer this final status (200–599) with an optional body and headers. */
  z.object({
    kind: z.literal('status'),
    status: z.number().int().min(200).max(599),
    body: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  /** Read the request and never answer (the sender's timeout must fire). */
  z.object({ kind: z.literal('hang') }),
  /** Answer after a delay. */
  z.object({
    kind: z.literal('slow'),
    delayMs: z.number().int().min(0),
    status: z.number().int().min(200).max(599).optional(),
  }),
  /** Reset the TCP connection before any response byte is written. */
  z.object({ kind: z.literal('reset-before-headers') }),
  /** Send status line and headers (promising a body), then reset the connection. */
  z.object({ kind: z.literal('reset-after-headers'), status: z.number().int().min(200).max(599).optional() }),
  /** Send headers, then stream a body that never ends. */
  z.object({ kind: z.literal('endless-body'), status: z.number().int().min(200).max(599).optional() }),
  /** Redirect to another URL (the sender must not follow it). */
  z.object({
    kind: z.literal('redirect'),
    location: z.string().min(1),
    status: z
      .union([z.literal(301), z.literal(302), z.literal(303), z.literal(307), z.literal(308)])
      .optional(),
  }),
]);

export type ReceiverBehaviour = z.infer<typeof ReceiverBehaviourSchema>;

/** Shorthands for building behaviours in code. */
export const behave = {
  /**
   * Answer `status` (200 acknowledges: spec "1. Notification delivery (outbound from the service)",
   * rule 2).
   */
  status: (status: number, body?: string): ReceiverBehaviour => ({
    kind: 'status',
    status,
    ...(body === undefined ? {} : { body }),
  }),
  hang: (): ReceiverBehaviour => ({ kind: 'hang' }),
  slow: (delayMs: number, status?: number): ReceiverBehaviour => ({
    kind: 'slow',
    delayMs,
    ...(status === undefined ? {} : { status }),
  }),
  resetBeforeHeaders: (): ReceiverBehaviour => ({ kind: 'reset-before-headers' }),
  resetAfterHeaders: (status?: number): ReceiverBehaviour => ({
    kind: 'reset-after-headers',
    ...(status === undefined ? {} : { status }),
  }),
  endlessBody: (status?: number): ReceiverBehaviour => ({
    kind: 'endless-body',
    ...(status === undefined ? {} : { status }),
  }),
  redirect: (location: string, status: 301 | 302 | 303 | 307 | 308 = 302): ReceiverBehaviour => ({
    kind: 'redirect',
    location,
    status,
  }),
};

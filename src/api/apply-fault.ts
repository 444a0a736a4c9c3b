import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { type AuthResult, type Fault, failure, type Variant } from '../auth/index.js';
import { type ApiCall, journal } from './context.js';
import { textResponse } from './exchange.js';

/** Bodies cut short, as a connection reset mid-answer or a broken proxy would deliver them. */
const MALFORMED: Record<'json16' | 'json17' | 'xml' | 'soap', string> = {
  json16: '"c3f9a0c',
  json17: '{"Token":"c3f9a0c","ExpiresAt":"20',
  xml: '<?xml version="1.0" encoding="utf-8"?><GetAccessTokenResponse xmlns="http://tempuri.org/"><Token>c3f9a',
  soap: '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetAccessTokenRes',
};

/** Waits `ms` real milliseconds: SDK timeouts are real, so an injected delay is too. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The answer of a `status`, `malformed` or `drop` fault (a `delay` fault answers normally, late).
 * `drop` destroys the socket without answering.
 */
export function faultResponse(
  c: Context,
  fault: Fault,
  variant: Variant,
  version: '1.6' | '1.7',
  contentType: string,
  headers: Record<string, string>,
): Response {
  if (fault.kind === 'drop') {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    incoming?.socket.destroy();
    return new Response(null, { status: 502 });
  }
  if (fault.kind === 'status') {
    const status = fault.status ?? 503;
    const body = `<html><body><h1>HTTP ${status}</h1><p>Injected by reportbo-emulator fault ${fault.id}.</p></body></html>`;
    return textResponse(body, {
      status,
      headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' },
    });
  }
  const key =
    variant === 'json' ? (version === '1.6' ? 'json16' : 'json17') : variant === 'xml' ? 'xml' : 'soap';
  return textResponse(MALFORMED[key], { status: 200, headers: { ...headers, 'Content-Type': contentType } });
}

/**
 * Answers and journals the `status`, `malformed` or `drop` fault taken for this call, the same way
 * for every variant; `undefined` when none applies (a `delay` fault answers normally, late).
 */
export function answerFault(
  call: ApiCall,
  answer: {
    fault: Fault | undefined;
    /** The Content-Type a normal answer of this variant carries (a malformed body keeps it). */
    contentType: string;
    headers: Record<string, string>;
  },
): Response | undefined {
  const { fault, contentType, headers } = answer;
  if (!fault || fault.kind === 'delay') return undefined;
  const res = faultResponse(call.c, fault, call.variant, call.ep.version, contentType, headers);
  const faulted: AuthResult = {
    ...failure('malformed_request', `fault ${fault.kind}`),
    outcome: 'fault',
    transactionCode: null,
  };
  journal(call, { result: faulted, httpStatus: res.status, fault });
  return res;
}

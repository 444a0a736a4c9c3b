import type { Context } from 'hono';
import { type AuthResult, failure, type TokenRequest } from '../auth/index.js';
import { ApiRequestError } from './api-error.js';
import { answerFault, sleep } from './apply-fault.js';
import { type ApiCall, type ApiDeps, type Endpoint, journal, versionString } from './context.js';
import { apiHeaders } from './format.js';
import { jsonTokenRequest } from './json-request.js';
import { JSON16_CONTENT_TYPE, JSON17_CONTENT_TYPE, renderJson } from './render-json.js';
import { renderXml, XML_CONTENT_TYPE } from './render-xml.js';
import { xmlTokenRequest } from './xml-request.js';

/** The credentials of a JSON/XML call, or why it could not be read (status for 1.7, whether to close). */
type RestRead =
  | { req: TokenRequest; error?: undefined }
  | { req?: undefined; error: { result: AuthResult; status: number; close: boolean } };

async function readCall(c: Context, ep: Endpoint, deps: ApiDeps): Promise<RestRead> {
  if (c.req.method !== 'POST') {
    const result = failure(
      'malformed_request',
      `Method ${c.req.method} is not allowed: GetAccessToken takes POST.`,
    );
    return { error: { result, status: ep.version === '1.6' ? 200 : 405, close: false } };
  }
  const accept = deps.settings.acceptLowercaseKeys;
  try {
    return {
      req:
        ep.kind === 'json'
          ? await jsonTokenRequest(c, ep.version, accept)
          : await xmlTokenRequest(c, ep.version, accept),
    };
  } catch (err) {
    if (!(err instanceof ApiRequestError)) throw err;
    const status = ep.version === '1.7' ? err.status : 200;
    // An oversized body may still be arriving: close the connection instead of draining it.
    return {
      error: {
        result: failure(err.outcome, err.message),
        status,
        close: err.outcome === 'payload_too_large',
      },
    };
  }
}

/**
 * JSON and XML GetAccessToken: read the request, then fault rules, then core → journal → render.
 * The request is read first so a faulted call is journaled with its user (an SDK test asserts "it
 * retried twice as alice"). 1.6 answers every failure with HTTP 200 (spec "Errors"); 1.7 answers
 * transport errors (bad body, oversized, wrong content type) with 400/413/415 and a
 * GetAccessTokenResponse carrying the code.
 */
export async function handleRest(c: Context, ep: Endpoint, deps: ApiDeps): Promise<Response> {
  const variant = ep.kind === 'json' ? 'json' : 'xml';
  const path = c.req.path;
  const read = await readCall(c, ep, deps);
  const call: ApiCall = { c, deps, ep, variant, path, username: read.req?.username ?? null };
  const fault = deps.auth.faults.take(ep.version, variant);
  if (fault && fault.kind !== 'delay') {
    const type =
      variant === 'xml' ? XML_CONTENT_TYPE : ep.version === '1.6' ? JSON16_CONTENT_TYPE : JSON17_CONTENT_TYPE;
    const headers = apiHeaders(ep.version, versionString(deps, ep.version), null);
    return answerFault(call, { fault, contentType: type, headers })!;
  }
  const result = read.req ? deps.auth.getAccessToken(read.req) : read.error.result;
  const status = read.error?.status ?? 200;
  journal(call, { result, httpStatus: status, fault });
  const headers = apiHeaders(ep.version, versionString(deps, ep.version), result);
  if (read.error?.close) headers.Connection = 'close';
  // 1.6 answers a wrong method with HTTP 200 (its "1000 - …" string); Allow still names POST.
  if (c.req.method !== 'POST') headers.Allow = 'POST';
  const res =
    variant === 'json'
      ? renderJson(ep.version, result, status, headers)
      : renderXml(ep.version, result, status, headers);
  if (fault?.kind === 'delay') await sleep(fault.delayMs ?? 0);
  return res;
}

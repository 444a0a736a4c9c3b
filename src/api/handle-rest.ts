import type { Context } from 'hono';
import { type AuthResult, failure, type TokenRequest } from '../auth/index.js';
import { ApiRequestError } from './api-error.js';
import { answerFault, sleep } from './apply-fault.js';
import { type ApiDeps, type Endpoint, journal, versionString } from './context.js';
import { apiHeaders } from './format.js';
import { jsonTokenRequest } from './json-request.js';
import { JSON16_CONTENT_TYPE, JSON17_CONTENT_TYPE, renderJson } from './render-json.js';
import { renderXml, XML_CONTENT_TYPE } from './render-xml.js';
import { xmlTokenRequest } from './xml-request.js';

/**
 * JSON and XML GetAccessToken: fault rules first, then extract → core → journal → render.
 * 1.6 answers every failure with HTTP 200 (spec "Errors"); 1.7 answers transport errors (bad body,
 * oversized, wrong content type) with 400/413/415 and a GetAccessTokenResponse carrying the code.
 */
export async function handleRest(c: Context, ep: Endpoint, deps: ApiDeps): Promise<Response> {
  const variant = ep.kind === 'json' ? 'json' : 'xml';
  const path = c.req.path;
  const fault = deps.auth.faults.take(ep.version, variant);
  if (fault && fault.kind !== 'delay') {
    const type =
      variant === 'xml' ? XML_CONTENT_TYPE : ep.version === '1.6' ? JSON16_CONTENT_TYPE : JSON17_CONTENT_TYPE;
    const headers = apiHeaders(ep.version, versionString(deps, ep.version), null);
    return answerFault(c, deps, ep, path, fault, variant, type, headers)!;
  }
  let result: AuthResult;
  let status = 200;
  let username: string | null = null;
  let close = false;
  const wrongMethod = c.req.method !== 'POST';
  if (wrongMethod) {
    result = failure(
      'malformed_request',
      `Method ${c.req.method} is not allowed: GetAccessToken takes POST.`,
    );
    status = ep.version === '1.6' ? 200 : 405;
  } else {
    try {
      const accept = deps.settings.acceptLowercaseKeys;
      const req: TokenRequest =
        variant === 'json'
          ? await jsonTokenRequest(c, ep.version, accept)
          : await xmlTokenRequest(c, ep.version, accept);
      username = req.username;
      result = deps.auth.getAccessToken(req);
    } catch (err) {
      if (!(err instanceof ApiRequestError)) throw err;
      result = failure(err.outcome, err.message);
      if (ep.version === '1.7') status = err.status;
      // An oversized body may still be arriving: close the connection instead of draining it.
      close = err.outcome === 'payload_too_large';
    }
  }
  journal(
    deps,
    ep,
    variant,
    path,
    username,
    result,
    status,
    fault ? { id: fault.id, kind: fault.kind } : undefined,
  );
  const headers = apiHeaders(ep.version, versionString(deps, ep.version), result);
  if (close) headers.Connection = 'close';
  // 1.6 answers errors with HTTP 200 (its "1100 - …" string); the Allow header still names POST.
  if (wrongMethod) headers.Allow = 'POST';
  const res =
    variant === 'json'
      ? renderJson(ep.version, result, status, headers)
      : renderXml(ep.version, result, status, headers);
  if (fault?.kind === 'delay') await sleep(fault.delayMs ?? 0);
  return res;
}

import { XMLParser } from 'fast-xml-parser';
import type { LoginStep } from '../schema/index.js';

const TEMPURI = 'http://tempuri.org/';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';

/** What a `login` step got back, in one shape for every version and variant. */
export interface LoginResult {
  status: number;
  /** True when a token came back. */
  ok: boolean;
  token: string | null;
  /** 1.7 TransactionCode, or the numeric prefix of a 1.6 error string. */
  transactionCode: string | null;
  message: string | null;
  headers: Record<string, string>;
  body: string;
}

interface Call {
  path: string;
  query?: Record<string, string>;
  contentType?: string;
  extraHeaders?: Record<string, string>;
  body?: string;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Builds the HTTP request a client of this version and variant sends (spec "3. GetAccessToken"). */
export function buildLoginCall(step: LoginStep): Call {
  const v17 = String(step.version) === '1.7';
  const service = v17 ? 'AuthService' : 'FlightService';
  // The spec's canonical casing: 1.6 JSON and SOAP take lower case, the rest PascalCase.
  const lowerByDefault = !v17 && (step.variant === 'json' || step.variant.startsWith('soap') || step.query);
  const lower = step.casing === 'lower' || (step.casing === 'canonical' && lowerByDefault);
  const [u, p] = lower ? ['username', 'password'] : ['Username', 'Password'];
  const requestXml = `<GetAccessTokenRequest xmlns="${TEMPURI}"><${u}>${esc(step.username)}</${u}><${p}>${esc(step.password)}</${p}></GetAccessTokenRequest>`;
  if (step.variant === 'json') {
    const path = `${service}.json/GetAccessToken`;
    if (step.query) return { path, query: { [u]: step.username, [p]: step.password } };
    return {
      path,
      contentType: 'application/json',
      body: JSON.stringify({ [u]: step.username, [p]: step.password }),
    };
  }
  if (step.variant === 'xml') {
    const path = `${service}.xml/GetAccessToken`;
    if (step.query)
      return { path, query: v17 ? { request: requestXml } : { [u]: step.username, [p]: step.password } };
    return {
      path,
      contentType: 'application/xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="utf-8"?>${requestXml}`,
    };
  }
  const fields = `<${u}>${esc(step.username)}</${u}><${p}>${esc(step.password)}</${p}>`;
  const operation = `<GetAccessToken xmlns="${TEMPURI}">${v17 ? `<request>${fields}</request>` : fields}</GetAccessToken>`;
  const soap12 = step.variant === 'soap12';
  const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${soap12 ? SOAP12 : SOAP11}"><soap:Body>${operation}</soap:Body></soap:Envelope>`;
  const action = `${TEMPURI}GetAccessToken`;
  return soap12
    ? {
        path: `${service}.asmx`,
        contentType: `application/soap+xml; charset=utf-8; action="${action}"`,
        body: envelope,
      }
    : {
        path: `${service}.asmx`,
        contentType: 'text/xml; charset=utf-8',
        extraHeaders: { SOAPAction: `"${action}"` },
        body: envelope,
      };
}

/** Makes a real GetAccessToken call against the emulator's provider API. */
export async function login(baseUrl: string, basePath: string, step: LoginStep): Promise<LoginResult> {
  const call = buildLoginCall(step);
  const url = new URL(`${baseUrl}${basePath.replace(/\/$/, '')}/${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...(call.contentType ? { 'content-type': call.contentType } : {}), ...call.extraHeaders },
    ...(call.body === undefined ? {} : { body: call.body }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = await res.text();
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body,
    ...interpret(body),
  };
}

/** Reads token, code and message out of any of the answer shapes (JSON string or object, XML, SOAP). */
export function interpret(body: string): Pick<LoginResult, 'ok' | 'token' | 'transactionCode' | 'message'> {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    data = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true }).parse(body);
  }
  const token = find(data, 'Token');
  const code = find(data, 'TransactionCode');
  if (token !== undefined || code !== undefined) {
    const tc = code === undefined || code === '' || code === null ? null : String(code);
    const ok = typeof token === 'string' && token !== '' && (tc === null || tc === '0');
    return {
      ok,
      token: ok ? String(token) : null,
      transactionCode: tc,
      message: nullable(find(data, 'TransactionMessage')),
    };
  }
  // 1.6: a plain string, the token or "<code> - <message>"; XML and SOAP wrap it in one element.
  const text = typeof data === 'string' ? data : (find(data, 'GetAccessTokenResult') ?? find(data, 'string'));
  const fault = find(data, 'faultstring') ?? find(data, 'Text') ?? find(data, 'message');
  if (typeof text === 'string') {
    // An error reads "<code> - <message>". The emulator's tokens never begin with a digit, but this
    // reader also serves answers recorded elsewhere, so it matches the whole error shape.
    const m = /^(\d+) - (.*)$/s.exec(text);
    if (m) return { ok: false, token: null, transactionCode: m[1]!, message: m[2] ?? null };
    return { ok: text.length > 0, token: text || null, transactionCode: null, message: null };
  }
  return { ok: false, token: null, transactionCode: nullable(find(data, 'code')), message: nullable(fault) };
}

function nullable(v: unknown): string | null {
  return v === undefined || v === null || v === '' ? null : typeof v === 'string' ? v : JSON.stringify(v);
}

/** Depth-first search for the first value under a key (any nesting). */
function find(data: unknown, key: string): unknown {
  if (data === null || typeof data !== 'object') return undefined;
  if (key in (data as object)) return (data as Record<string, unknown>)[key];
  for (const v of Object.values(data as object)) {
    const found = find(v, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

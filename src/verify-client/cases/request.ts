/**
 * well-formed-request: the first call as the provider expects it for the chosen version and
 * variant (spec "3. GetAccessToken": paths, request shapes; the WSDL's SOAPAction). It runs first and
 * alone: when the emulator refuses the SDK's request, no other case can say anything (they are skipped).
 */
import { exchangeOf } from '../../api/index.js';
import { GET_ACCESS_TOKEN_ACTION } from '../../api/wsdl/wsdl.js';
import type { Variant } from '../../auth/types.js';
import { endpointPath } from '../stage.js';
import {
  type ClientCase,
  count,
  fail,
  okCalls,
  pass,
  printedTokens,
  type Seen,
  said,
  type Verdict,
  warn,
} from './case.js';

/** The media types each variant is sent with. */
const MEDIA_TYPES: Record<Variant, readonly string[]> = {
  json: ['application/json'],
  xml: ['application/xml', 'text/xml'],
  soap11: ['text/xml'],
  soap12: ['application/soap+xml'],
};

export const wellFormedRequest: ClientCase = {
  id: 'well-formed-request',
  rule: 'spec "3. GetAccessToken": the path, request shape and field names of each version and variant; the WSDL\'s SOAPAction',
  fix: 'Send the request docs/verify-client.md "What well-formed means" shows for your version and variant.',
  ask: { tokens: 1, intervalMs: 0 },
  setting: 'asked for 1 token',
  judge(seen) {
    const entry = seen.stage.entries()[0];
    const { run } = seen;
    if (!entry) {
      return fail(
        run.exitCode === 0 && run.stdout.length > 0
          ? `printed "${run.stdout[0]!.slice(0, 80)}" without calling GetAccessToken at ${seen.stage.endpoint}`
          : `no GetAccessToken call reached ${seen.stage.endpoint} ${said(run) || '(the harness printed nothing)'}`,
        'Call the URL in VERIFY_CLIENT_ENDPOINT (or the WSDL in VERIFY_CLIENT_WSDL) with the credentials in VERIFY_CLIENT_USERNAME and VERIFY_CLIENT_PASSWORD.',
      );
    }
    const problems: string[] = [];
    const notes: string[] = [];
    const exchange = exchangeOf(entry);
    const { version, variant } = seen.options;
    if (entry.variant !== variant)
      problems.push(`sent ${entry.variant} though the kit runs --variant ${variant}`);
    if (exchange) checkShape(exchange.request, seen, problems, notes);
    notes.push(...entry.warnings.map((w) => `the emulator noted: ${w}`));
    if (entry.outcome !== 'ok') {
      const answer = exchange?.response.body.replace(/\s+/g, ' ').slice(0, 200) ?? '';
      problems.push(
        `the emulator refused the request (${entry.outcome}${entry.transactionCode ? `, TransactionCode ${entry.transactionCode}` : ''}, HTTP ${entry.httpStatus})${answer ? `: ${answer}` : ''}`,
      );
    }
    if (problems.length > 0) return fail(problems.join('; '));
    const printed = printedTokens(seen);
    if (!Array.isArray(printed)) return tokenVerdict(printed, seen);
    const calls = okCalls(seen.calls).length;
    const what = `POST ${endpointPath(version, variant)} (${version} ${variant}), ${count(calls, 'call')}`;
    if (notes.length > 0) return warn(`${what}; ${notes.join('; ')}`);
    return pass(what);
  },
};

/** A call the emulator answered with a token, yet no token came out: the SDK's reading of the answer. */
function tokenVerdict(verdict: Verdict, seen: Seen): Verdict {
  if (seen.run.exitCode !== 0 && seen.run.killedAfterMs === undefined)
    return fail(
      `the emulator answered a token, but the SDK reported an error (exit ${seen.run.exitCode ?? seen.run.signal}${said(seen.run) ? `: ${said(seen.run)}` : ''})`,
      `Read the token from the answer as docs/verify-client.md "What well-formed means" shows for ${seen.options.version} ${seen.options.variant}.`,
    );
  return verdict;
}

interface SentRequest {
  method: string;
  target: string;
  headers: Array<[string, string]>;
}

function checkShape(request: SentRequest, seen: Seen, problems: string[], notes: string[]): void {
  const { version, variant } = seen.options;
  const header = (name: string) => request.headers.find(([n]) => n.toLowerCase() === name)?.[1];
  if (request.method !== 'POST') problems.push(`method ${request.method}; GetAccessToken is a POST`);
  const [path = '', query = ''] = request.target.split('?', 2);
  const expected = `${new URL(seen.stage.baseUrl).pathname}${endpointPath(version, variant)}`;
  if (path !== expected) {
    if (path.toLowerCase() === expected.toLowerCase())
      notes.push(
        `path spelled ${path}; the provider's is ${expected} (IIS matches any case, a proxy may not)`,
      );
    else notes.push(`path ${path}; the provider documents ${expected}`);
  }
  if (/(^|&)password=/i.test(query))
    notes.push(
      'the password travels in the query string, where proxies and access logs keep it; send it in the body',
    );
  const contentType = header('content-type');
  const media = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!contentType) {
    // Query-string mode (1.6 JSON and XML, 1.7 XML's `request` parameter) sends no body to type.
    if (query === '') problems.push('no Content-Type header');
  } else {
    if (!MEDIA_TYPES[variant].includes(media))
      problems.push(
        `Content-Type "${contentType}"; ${variant} is sent as ${MEDIA_TYPES[variant].join(' or ')}`,
      );
    if (!/;\s*charset\s*=/i.test(contentType))
      notes.push(`Content-Type "${contentType}" names no charset; add "; charset=utf-8"`);
  }
  if (variant === 'soap11') {
    const action = header('soapaction');
    const bare = action?.trim().replace(/^"(.*)"$/, '$1');
    if (bare !== GET_ACCESS_TOKEN_ACTION)
      problems.push(
        `wrong SOAPAction: ${action === undefined ? 'none sent' : `sent ${action}`}; GetAccessToken's is "${GET_ACCESS_TOKEN_ACTION}" (the WSDL's soapAction)`,
      );
  }
  if (variant === 'soap12') {
    const action = /;\s*action\s*=\s*"?([^";]*)"?/i.exec(contentType ?? '')?.[1];
    if (action === undefined)
      notes.push(`no action parameter in the Content-Type; add action="${GET_ACCESS_TOKEN_ACTION}"`);
    else if (action !== GET_ACCESS_TOKEN_ACTION)
      problems.push(
        `wrong action "${action}" in the Content-Type; GetAccessToken's is "${GET_ACCESS_TOKEN_ACTION}"`,
      );
  }
}

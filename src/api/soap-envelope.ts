import { MustUnderstandError, malformed } from './api-error.js';
import { TEMPURI_NS, XSD_NS, XSI_NS } from './format.js';
import { SOAP11_NS, SOAP12_NS, type SoapVersion } from './render-soap.js';
import {
  childElements,
  literal,
  localName,
  PLAIN_TEXT,
  parseXml,
  UTF8_DECLARATION,
  type XmlNode,
} from './xml-parse.js';

/** Namespace prefix → URI in scope at an element ('' is the default namespace). */
type Scope = ReadonlyMap<string, string>;

function extend(scope: Scope, node: XmlNode): Scope {
  if (typeof node === 'string') return scope;
  let out: Map<string, string> | undefined;
  for (const [k, v] of Object.entries(node)) {
    if (typeof v !== 'string') continue;
    const prefix = k === '@_xmlns' ? '' : k.startsWith('@_xmlns:') ? k.slice(8) : undefined;
    if (prefix === undefined) continue;
    out ??= new Map(scope);
    out.set(prefix, v);
  }
  return out ?? scope;
}

function namespaceOf(qname: string, scope: Scope): string {
  const i = qname.indexOf(':');
  return scope.get(i < 0 ? '' : qname.slice(0, i)) ?? '';
}

/** The operation element of a request envelope and the namespaces in scope there. */
export interface SoapCall {
  operation: XmlNode;
  scope: Scope;
}

/**
 * Reads a SOAP envelope of the version its Content-Type announced: exactly one Envelope in the
 * version's namespace (the other version's namespace is a VersionMismatch), at most one Header,
 * exactly one Body holding exactly one `GetAccessToken` element in http://tempuri.org/.
 */
export async function parseEnvelope(text: string, soap: SoapVersion): Promise<SoapCall> {
  return simpleCall(text, soap) ?? envelopeCall(await parseXml(text), soap);
}

/**
 * A GetAccessToken call as SDKs write it, compact and with credentials in plain ASCII: an optional
 * UTF-8 declaration, `soap:Envelope` declaring the version's namespace (and, as ASP.NET's proxies
 * do, xsi and xsd), `soap:Body`, then `GetAccessToken` in http://tempuri.org/ holding the 1.7
 * `request` or the 1.6 `username`/`password` parameters.
 */
function simpleCallPattern(soapNs: string): RegExp {
  const declaration = literal(UTF8_DECLARATION);
  const schemas = literal(` xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}"`);
  const request = `<request><Username>${PLAIN_TEXT}</Username><Password>${PLAIN_TEXT}</Password></request>`;
  const params = `<username>${PLAIN_TEXT}</username><password>${PLAIN_TEXT}</password>`;
  return new RegExp(
    `^(?:${declaration})?<soap:Envelope xmlns:soap="${literal(soapNs)}"(${schemas})?><soap:Body>` +
      `<GetAccessToken xmlns="${literal(TEMPURI_NS)}">(?:${request}|${params})</GetAccessToken>` +
      '</soap:Body></soap:Envelope>$',
  );
}
const SIMPLE_CALL = { '1.1': simpleCallPattern(SOAP11_NS), '1.2': simpleCallPattern(SOAP12_NS) };

/**
 * The call of a simple envelope (see simpleCallPattern) read with one regular expression, else
 * undefined (the caller parses it in full). It answers what validating and parsing would: a
 * property test checks it against the full reading. Worth its lines: fast-xml-parser's two passes
 * took ~45 µs of the ~75-80 µs of server CPU a 1.7 SOAP 1.1 GetAccessToken cost; read this way the
 * call costs ~30 µs, as a 1.7 JSON call does (wrk, main-thread CPU per call; decision 0035).
 */
export function simpleCall(text: string, soap: SoapVersion): SoapCall | undefined {
  const m = SIMPLE_CALL[soap].exec(text);
  if (!m) return undefined;
  const [, schemas, username, password, username16, password16] = m;
  const operation: XmlNode =
    username !== undefined
      ? { request: { Username: username, Password: password as string }, '@_xmlns': TEMPURI_NS }
      : { username: username16 as string, password: password16 as string, '@_xmlns': TEMPURI_NS };
  const scope = new Map([['soap', soap === '1.1' ? SOAP11_NS : SOAP12_NS]]);
  if (schemas) scope.set('xsi', XSI_NS).set('xsd', XSD_NS);
  return { operation, scope: scope.set('', TEMPURI_NS) };
}

/** The call in a parsed envelope (see parseEnvelope). */
export function envelopeCall(doc: Record<string, XmlNode | XmlNode[]>, soap: SoapVersion): SoapCall {
  const expected = soap === '1.1' ? SOAP11_NS : SOAP12_NS;
  const roots = childElements(doc);
  const [rootName, root] = roots[0] ?? [];
  if (roots.length !== 1 || rootName === undefined || root === undefined || Array.isArray(root)) {
    throw malformed('The request must have exactly one root element, soap:Envelope.');
  }
  const envScope = extend(new Map(), root);
  const envNs = namespaceOf(rootName, envScope);
  if (localName(rootName) !== 'Envelope')
    throw malformed(`The root element must be Envelope (got <${rootName}>).`);
  if (envNs !== expected) {
    const other = soap === '1.1' ? SOAP12_NS : SOAP11_NS;
    if (envNs === other) {
      throw malformed(
        `A SOAP ${soap === '1.1' ? '1.2' : '1.1'} envelope was sent with the SOAP ${soap} Content-Type (${soap === '1.1' ? 'text/xml' : 'application/soap+xml'}). Use ${soap === '1.1' ? 'application/soap+xml for SOAP 1.2' : 'text/xml for SOAP 1.1'}.`,
        'VersionMismatch',
      );
    }
    throw malformed(
      `The Envelope namespace must be ${expected} (got "${envNs || '(none)'}").`,
      'VersionMismatch',
    );
  }
  const bodies: Array<[string, XmlNode | XmlNode[]]> = [];
  let header: XmlNode | undefined;
  for (const [name, child] of childElements(root)) {
    const ln = localName(name);
    if (ln !== 'Body' && ln !== 'Header') throw malformed(`Unexpected element <${name}> in the Envelope.`);
    if (Array.isArray(child))
      throw malformed(`The Envelope holds more than one ${ln}; exactly one is allowed.`);
    if (ln === 'Body') bodies.push([name, child]);
    else header = child;
  }
  const [bodyEntry] = bodies;
  if (!bodyEntry) throw malformed('The Envelope has no Body.');
  if (bodies.length > 1) throw malformed('The Envelope holds more than one Body; exactly one is allowed.');
  // Before the Body is processed (SOAP 1.2 part 1 §2.6): no header block is understood here.
  if (header !== undefined) checkMustUnderstand(header, extend(envScope, header), soap);
  const [bodyName, body] = bodyEntry as [string, XmlNode];
  const bodyScope = extend(envScope, body);
  if (namespaceOf(bodyName, envScope) !== expected)
    throw malformed(`The Body must be in namespace ${expected}.`);
  const ops = childElements(body);
  const [opName, op] = ops[0] ?? [];
  if (ops.length !== 1 || opName === undefined || op === undefined) {
    throw malformed(`The Body must hold exactly one operation element (found ${ops.length}).`);
  }
  if (Array.isArray(op)) throw malformed(`The Body holds <${opName}> more than once.`);
  const opScope = extend(bodyScope, op);
  const opNs = namespaceOf(opName, opScope);
  if (localName(opName) !== 'GetAccessToken' || opNs !== TEMPURI_NS) {
    throw malformed(
      `Server did not recognize the operation {${opNs}}${localName(opName)}. Supported: GetAccessToken in namespace ${TEMPURI_NS}.`,
    );
  }
  return { operation: op, scope: opScope };
}

/** xs:boolean true, as both SOAP versions read `mustUnderstand` (SOAP 1.1 writes "1"). */
const TRUE_VALUES = new Set(['1', 'true']);

/** Roles (1.2) and actors (1.1) that name this node; absent means the ultimate receiver, i.e. us. */
const OUR_ROLES = new Set([
  'http://schemas.xmlsoap.org/soap/actor/next',
  'http://www.w3.org/2003/05/soap-envelope/role/next',
  'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver',
]);

/**
 * Refuses the first header block targeted at this node with mustUnderstand true (SOAP 1.1 §4.2.3,
 * SOAP 1.2 part 1 §5.2.3): GetAccessToken understands no header. Blocks for other actors/roles
 * and blocks without the attribute are ignored, as the specifications say.
 */
function checkMustUnderstand(header: XmlNode, headerScope: Scope, soap: SoapVersion): void {
  const envNs = soap === '1.1' ? SOAP11_NS : SOAP12_NS;
  const roleName = soap === '1.1' ? 'actor' : 'role';
  for (const [name, blocks] of childElements(header)) {
    for (const block of Array.isArray(blocks) ? blocks : [blocks]) {
      if (typeof block === 'string') continue;
      const scope = extend(headerScope, block);
      let must = false;
      let role: string | undefined;
      for (const [key, value] of Object.entries(block)) {
        if (!key.startsWith('@_') || typeof value !== 'string') continue;
        const attr = key.slice(2);
        if (!attr.includes(':') || namespaceOf(attr, scope) !== envNs) continue;
        if (localName(attr) === 'mustUnderstand') must = TRUE_VALUES.has(value.trim());
        else if (localName(attr) === roleName) role = value.trim();
      }
      if (must && (role === undefined || role === '' || OUR_ROLES.has(role))) {
        throw new MustUnderstandError({ name: localName(name), ns: namespaceOf(name, scope) });
      }
    }
  }
}

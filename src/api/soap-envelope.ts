import { malformed, type NotUnderstoodHeader } from './api-error.js';
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

/** The operation element of a request envelope, the namespaces in scope there, and the envelope's version. */
export interface SoapCall {
  /** The version the Envelope's namespace names (ASMX reads it from there, not from the Content-Type). */
  soap: SoapVersion;
  operation: XmlNode;
  scope: Scope;
  /** The first header block marked mustUnderstand, which GetAccessToken does not understand. */
  notUnderstood?: NotUnderstoodHeader;
}

/**
 * Reads a SOAP envelope: exactly one Envelope, in the SOAP 1.1 or 1.2 namespace (it decides the
 * version, as SoapServerProtocolHelper.GetHelper does; any other is a VersionMismatch), at most one
 * Header, exactly one Body holding exactly one `GetAccessToken` element in http://tempuri.org/.
 */
export async function parseEnvelope(text: string): Promise<SoapCall> {
  return simpleCall(text) ?? envelopeCall(await parseXml(text));
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
const SIMPLE_CALL = [
  ['1.1', simpleCallPattern(SOAP11_NS)],
  ['1.2', simpleCallPattern(SOAP12_NS)],
] as const;

/**
 * The call of a simple envelope (see simpleCallPattern) read with one regular expression, else
 * undefined (the caller parses it in full). It answers what validating and parsing would: a
 * property test checks it against the full reading. Worth its lines: fast-xml-parser's two passes
 * took ~45 µs of the ~75-80 µs of server CPU a 1.7 SOAP 1.1 GetAccessToken cost; read this way the
 * call costs ~30 µs, as a 1.7 JSON call does (wrk, main-thread CPU per call; decision 0035).
 */
export function simpleCall(text: string): SoapCall | undefined {
  let soap: SoapVersion | undefined;
  let m: RegExpExecArray | null = null;
  for (const [version, pattern] of SIMPLE_CALL) {
    m = pattern.exec(text);
    if (m) {
      soap = version;
      break;
    }
  }
  if (!m || !soap) return undefined;
  const [, schemas, username, password, username16, password16] = m;
  const operation: XmlNode =
    username !== undefined
      ? { request: { Username: username, Password: password as string }, '@_xmlns': TEMPURI_NS }
      : { username: username16 as string, password: password16 as string, '@_xmlns': TEMPURI_NS };
  const scope = new Map([['soap', soap === '1.1' ? SOAP11_NS : SOAP12_NS]]);
  if (schemas) scope.set('xsi', XSI_NS).set('xsd', XSD_NS);
  return { soap, operation, scope: scope.set('', TEMPURI_NS) };
}

/** The call in a parsed envelope (see parseEnvelope). */
export function envelopeCall(doc: Record<string, XmlNode | XmlNode[]>): SoapCall {
  const roots = childElements(doc);
  const [rootName, root] = roots[0] ?? [];
  if (roots.length !== 1 || rootName === undefined || root === undefined || Array.isArray(root)) {
    throw malformed('The request must have exactly one root element, soap:Envelope.');
  }
  const envScope = extend(new Map(), root);
  const envNs = namespaceOf(rootName, envScope);
  if (localName(rootName) !== 'Envelope')
    throw malformed(`The root element must be Envelope (got <${rootName}>).`);
  const soap: SoapVersion | undefined = envNs === SOAP11_NS ? '1.1' : envNs === SOAP12_NS ? '1.2' : undefined;
  if (soap === undefined) {
    // SoapServerProtocol.CheckHelperVersion: a namespace of neither version.
    throw malformed(
      `The Envelope namespace must be ${SOAP11_NS} (SOAP 1.1) or ${SOAP12_NS} (SOAP 1.2) (got "${envNs || '(none)'}").`,
      'VersionMismatch',
    );
  }
  const expected = soap === '1.1' ? SOAP11_NS : SOAP12_NS;
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
  const call: SoapCall = { soap, operation: op, scope: opScope };
  const notUnderstood =
    header === undefined ? undefined : mustUnderstand(header, extend(envScope, header), soap);
  if (notUnderstood) call.notUnderstood = notUnderstood;
  return call;
}

/** xs:boolean true, as both SOAP versions read `mustUnderstand` (SOAP 1.1 writes "1"). */
const TRUE_VALUES = new Set(['1', 'true']);

/**
 * The first header block marked mustUnderstand true (SOAP 1.1 §4.2.3, SOAP 1.2 part 1 §5.2.3):
 * GetAccessToken understands no header. As ASMX does (SoapHeaderHandling.EnsureHeadersUnderstood),
 * a block's actor (1.1) or role (1.2) does not matter: one aimed at another node faults too.
 */
function mustUnderstand(
  header: XmlNode,
  headerScope: Scope,
  soap: SoapVersion,
): NotUnderstoodHeader | undefined {
  const envNs = soap === '1.1' ? SOAP11_NS : SOAP12_NS;
  for (const [name, blocks] of childElements(header)) {
    for (const block of Array.isArray(blocks) ? blocks : [blocks]) {
      if (typeof block === 'string') continue;
      const scope = extend(headerScope, block);
      for (const [key, value] of Object.entries(block)) {
        if (!key.startsWith('@_') || typeof value !== 'string') continue;
        const attr = key.slice(2);
        if (!attr.includes(':') || namespaceOf(attr, scope) !== envNs) continue;
        if (localName(attr) === 'mustUnderstand' && TRUE_VALUES.has(value.trim())) {
          return { name: localName(name), ns: namespaceOf(name, scope) };
        }
      }
    }
  }
  return undefined;
}

import type { X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { ApiRequestError, malformed, xmlError } from './api-error.js';
import { XML_ENTITY_DECODER } from './xml-entities.js';

/** Deepest element nesting accepted; a GetAccessToken envelope needs 5. */
export const MAX_XML_DEPTH = 32;

/** A parsed element: text, or children keyed by qualified name, attributes as `@_name`. */
export type XmlNode = string | { [name: string]: XmlNode | XmlNode[] };

const PARSER_OPTIONS: X2jOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // A password "00123" or " x " must survive intact (not become 123 or "x").
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Predefined entities and character references only: documents with a DTD never get here.
  processEntities: true,
  // Built once (see XML_ENTITY_DECODER): the parser itself is built once in loadXml.
  entityDecoder: XML_ENTITY_DECODER,
  maxNestedTags: MAX_XML_DEPTH,
  ignoreDeclaration: true,
  ignorePiTags: true,
};

interface Xml {
  parser: XMLParser;
  validator: typeof XMLValidator;
}
let xml: Promise<Xml> | undefined;

/** fast-xml-parser is loaded on the first XML or SOAP call: the 1.7 JSON cold start does not pay for it. */
function loadXml(): Promise<Xml> {
  xml ??= import('fast-xml-parser').then((m) => ({
    parser: new m.XMLParser(PARSER_OPTIONS),
    validator: m.XMLValidator,
  }));
  return xml;
}

const DTD = /<!DOCTYPE|<!ENTITY/i;

/**
 * For the quick readings of the documents SDKs send (simpleCall, simpleRequest): element text in
 * printable ASCII without `<`, `>` and `&`, which every XML parser reads as it is (no entities).
 */
export const PLAIN_TEXT = "([!-%'-;=?-~]+)";
export const UTF8_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
/** `s` as a regular expression matching it literally (the names and URIs used here need no more). */
export const literal = (s: string) => s.replace(/[.?]/g, '\\$&');

/**
 * Parses untrusted XML: refuses DTDs and entity declarations (billion laughs, SYSTEM entities),
 * ill-formed documents and deep nesting, with a message naming the problem. Never throws anything
 * but an ApiRequestError (as a rejected promise).
 */
export async function parseXml(text: string): Promise<Record<string, XmlNode | XmlNode[]>> {
  if (text.trim() === '') throw xmlError('The request body is empty: an XML document was expected.');
  if (DTD.test(text)) {
    throw xmlError('DTDs and entity declarations are not accepted (<!DOCTYPE>, <!ENTITY>). Remove them.');
  }
  const { parser, validator } = await loadXml();
  const valid = validator.validate(text);
  if (valid !== true) {
    throw xmlError(
      `The XML is not well-formed: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col}).`,
    );
  }
  try {
    return parser.parse(text) as Record<string, XmlNode | XmlNode[]>;
  } catch (err) {
    if (err instanceof ApiRequestError) throw err;
    const msg = (err as Error).message;
    if (/nested/i.test(msg)) throw xmlError(`The XML nests elements deeper than ${MAX_XML_DEPTH} levels.`);
    throw malformed(`The XML was refused: ${msg.replace(/^\[SECURITY\]\s*/, '')}.`);
  }
}

/** Local part of a qualified name (`soap:Body` → `Body`). */
export function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

/** Element children of a node as [qualified name, node] pairs (attributes and text skipped). */
export function childElements(node: XmlNode | undefined): Array<[string, XmlNode | XmlNode[]]> {
  if (node === undefined || typeof node === 'string') return [];
  return Object.entries(node).filter(([k]) => !k.startsWith('@_') && k !== '#text');
}

/**
 * The text of a leaf element: null for `xsi:nil`, '' for an empty element. Refuses repeated elements
 * and elements with children, naming the element.
 */
export function leafText(node: XmlNode | XmlNode[] | undefined, name: string): string | null {
  if (node === undefined) return null;
  if (Array.isArray(node)) throw malformed(`Element ${name} appears more than once.`);
  if (typeof node === 'string') return node;
  if (childElements(node).length > 0) throw malformed(`Element ${name} must hold text, not child elements.`);
  for (const [k, v] of Object.entries(node))
    if (k.startsWith('@_') && localName(k) === 'nil' && v === 'true') return null;
  const text = node['#text'];
  return typeof text === 'string' ? text : '';
}

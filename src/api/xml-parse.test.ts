import { describe, expect, it } from 'vitest';
import { ApiRequestError } from './api-error.js';
import { leafText, parseXml } from './xml-parse.js';

describe('parseXml', () => {
  it('keeps leading zeros and surrounding spaces of text values', async () => {
    const doc = (await parseXml('<r><Password>00123</Password><Username> x </Username></r>')) as {
      r: Record<string, string>;
    };
    expect(doc.r).toEqual({ Password: '00123', Username: ' x ' });
  });

  it('decodes predefined entities and character references', async () => {
    const doc = (await parseXml('<r><P>a&amp;b&lt;&#x41;</P></r>')) as { r: { P: string } };
    expect(doc.r.P).toBe('a&b<A');
  });

  it('decodes character references to any character XML allows, beyond the BMP too', async () => {
    const doc = (await parseXml('<r><P>&#160;&#x1F600;&#9;</P></r>')) as { r: { P: string } };
    expect(doc.r.P).toBe('\u00a0\u{1F600}\t');
  });

  it.each([
    ['an undeclared entity', '<r><P>a&nbsp;b</P></r>', /The entity &nbsp; is not declared/],
    ['an entity with the wrong case', '<r><P>&AMP;</P></r>', /The entity &AMP; is not declared/],
    ['an undeclared entity in an attribute', '<r a="&euro;"/>', /The entity &euro; is not declared/],
    ['a reference to NUL', '<r><P>&#0;</P></r>', /&#0; names a character XML does not allow/],
    ['a reference to a surrogate', '<r><P>&#xD800;</P></r>', /&#xD800; names a character/],
    ['a reference beyond Unicode', '<r><P>&#x110000;</P></r>', /&#x110000; names a character/],
    ['a DTD', '<!DOCTYPE r [<!ENTITY a "b">]><r>&a;</r>', /DTDs and entity declarations/],
    ['ill-formed XML', '<r><a></r>', /not well-formed/],
    ['deep nesting', `${'<a>'.repeat(40)}${'</a>'.repeat(40)}`, /deeper than 32 levels/],
    ['a __proto__ element', '<r><__proto__>1</__proto__></r>', /__proto__/],
    ['an empty document', '  ', /empty/],
  ])('refuses %s with an ApiRequestError', async (_name, xml, message) => {
    await expect(parseXml(xml)).rejects.toThrow(ApiRequestError);
    await expect(parseXml(xml)).rejects.toThrow(message);
  });
});

describe('leafText', () => {
  it('answers null for xsi:nil, empty string for an empty element, and refuses repeats', async () => {
    const doc = (await parseXml(
      '<r xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><A i:nil="true"/><B/><C>1</C><C>2</C></r>',
    )) as {
      r: Record<string, never>;
    };
    expect(leafText(doc.r.A, 'A')).toBeNull();
    expect(leafText(doc.r.B, 'B')).toBe('');
    expect(() => leafText(doc.r.C, 'C')).toThrow('Element C appears more than once.');
  });
});

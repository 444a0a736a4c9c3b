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

  it.each([
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

import fc from 'fast-check';

/**
 * Text for the property tests of the quick XML/SOAP readings (src/api/soap-envelope.ts,
 * src/api/xml-request.ts): what they must match, and what they must leave to the full parser.
 */

/** Any printable ASCII string: the credentials the quick readings may take. */
export const printableAscii = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((cp) => String.fromCharCode(cp)),
});

/** Text built from the pieces that make XML tricky: markup, entities, quotes, white space, non-ASCII. */
export const anyText = fc.string({
  unit: fc.constantFrom(
    'a',
    '0',
    ' ',
    '&',
    '<',
    '>',
    ';',
    '"',
    "'",
    ']',
    '\r',
    '\t',
    'é',
    '&amp;',
    '&#65;',
    '&nbsp;',
  ),
});

/** Whether the quick readings accept `s` as a value (printable, no space, no markup). */
export const plain = (s: string) => /^[!-~]+$/.test(s) && !/[<>&]/.test(s);

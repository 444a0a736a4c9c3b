import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { type RawAnswer, rawRequest } from './helpers/api-raw-http.js';
import { post, startApiServer, TOKEN } from './helpers/api-server.js';
import { ACTION, envelope, op16, op17, soapHeaders } from './helpers/soap-envelopes.js';

// Issue 42: each behaviour where ASMX answers something a client's error handling can tell apart.
// docs/spec-rules.md "SOAP as ASMX answers it" names, row by row, the .NET method each one follows.

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
  // Credentials only a body decoded in the right charset can log in with.
  for (const user of [
    { username: 'euro', password: '€uro', idWeb: 4201, webDescription: 'Euro' },
    { username: 'quotes', password: '„smart“ ‘quotes’ – …', idWeb: 4202, webDescription: 'Quotes' },
  ]) {
    const res = await post(`${api.url}/__admin/users`, JSON.stringify(user), 'application/json');
    expect(res.status).toBe(201);
  }
});
afterAll(() => api.close());
beforeEach(() => api.emulator.reset());

const AUTH = () => `${api.url}/api/1.7/AuthService.asmx`;
const FLIGHT = () => `${api.url}/api/1.6/FlightService.asmx`;
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false });
const TEXT_XML = { 'content-type': 'text/xml; charset=utf-8' };
const SOAP12 = { 'content-type': 'application/soap+xml; charset=utf-8' };

interface JournalRow {
  variant: string;
  username: string | null;
  outcome: string;
  httpStatus: number;
  transactionCode: string | null;
  warnings: string[];
}
async function lastCall(): Promise<JournalRow> {
  const res = await fetch(`${api.url}/__admin/requests`);
  const { requests } = (await res.json()) as { requests: JournalRow[] };
  expect(requests.length).toBeGreaterThan(0);
  return requests.at(-1) as JournalRow;
}
const tokenCount = async () =>
  ((await (await fetch(`${api.url}/__admin/tokens`)).json()) as { tokens: unknown[] }).tokens.length;

/** The Body's first child of an answer envelope and the envelope's namespace. */
function answerBody(ans: RawAnswer): { ns: string; body: Record<string, unknown> } {
  const env = parser.parse(ans.text)['soap:Envelope'];
  return { ns: env['@_xmlns:soap'], body: env['soap:Body'] };
}
function tokenOf(ans: RawAnswer): string {
  expect(ans.status, ans.text).toBe(200);
  const { body } = answerBody(ans);
  const result = (body.GetAccessTokenResponse as { GetAccessTokenResult: unknown }).GetAccessTokenResult;
  return typeof result === 'string' ? result : (result as { Token: string }).Token;
}

const NS11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const NS12 = 'http://www.w3.org/2003/05/soap-envelope';

describe('D1: SOAP 1.1 without a SOAPAction header', () => {
  it.each([
    ['AuthService (1.7)', AUTH, op17('alice', ' 00123 ')],
    ['FlightService (1.6)', FLIGHT, op16('alice', ' 00123 ')],
  ])(
    '%s is routed on the Body: a token in a SOAP 1.1 envelope, and a journal warning',
    async (_s, url, op) => {
      const ans = await rawRequest(url(), { headers: TEXT_XML, body: Buffer.from(envelope('1.1', op)) });
      expect(tokenOf(ans)).toMatch(TOKEN);
      expect(ans.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(answerBody(ans).ns).toBe(NS11);
      const call = await lastCall();
      expect(call).toMatchObject({ variant: 'soap11', username: 'alice', outcome: 'ok', httpStatus: 200 });
      expect(call.warnings).toContain('no_soapaction: no SOAPAction header: routed on the Body as ASMX does');
    },
  );

  it('with a Body naming no operation it is a soap:Client Fault (500), no token', async () => {
    const ans = await rawRequest(AUTH(), {
      headers: TEXT_XML,
      body: Buffer.from(envelope('1.1', '<Logout xmlns="http://tempuri.org/"/>')),
    });
    expect(ans.status).toBe(500);
    expect((answerBody(ans).body['soap:Fault'] as { faultcode: string }).faultcode).toBe('soap:Client');
    expect(await tokenCount()).toBe(0);
  });

  it('with a SOAPAction naming another method it is still a soap:Client Fault (ASMX routes on the header then)', async () => {
    const ans = await rawRequest(AUTH(), {
      headers: { ...TEXT_XML, SOAPAction: '"http://tempuri.org/Logout"' },
      body: Buffer.from(envelope('1.1', op17('alice', ' 00123 '))),
    });
    expect(ans.status).toBe(500);
    expect((answerBody(ans).body['soap:Fault'] as { faultcode: string }).faultcode).toBe('soap:Client');
    expect(await tokenCount()).toBe(0);
  });

  it('an URL-encoded SOAPAction naming GetAccessToken is the same action (HttpUtility.UrlDecode)', async () => {
    const ans = await rawRequest(AUTH(), {
      headers: { ...TEXT_XML, SOAPAction: `"${encodeURIComponent(ACTION)}"` },
      body: Buffer.from(envelope('1.1', op17('alice', ' 00123 '))),
    });
    expect(tokenOf(ans)).toMatch(TOKEN);
    expect((await lastCall()).warnings).toEqual([]);
  });
});

describe('D2: SOAP 1.2 with an action that names no method', () => {
  it('falls back to the Body: a token in a SOAP 1.2 envelope, and a journal warning', async () => {
    const ans = await rawRequest(AUTH(), {
      headers: { 'content-type': 'application/soap+xml; charset=utf-8; action="urn:example:Other"' },
      body: Buffer.from(envelope('1.2', op17('alice', ' 00123 '))),
    });
    expect(tokenOf(ans)).toMatch(TOKEN);
    expect(ans.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect((await lastCall()).warnings).toContain(
      'action_not_recognized: action "urn:example:Other" names no operation: routed on the Body as ASMX does',
    );
  });

  it('without an action parameter it is routed on the Body with no warning (the parameter is optional)', async () => {
    const ans = await rawRequest(AUTH(), {
      headers: SOAP12,
      body: Buffer.from(envelope('1.2', op17('alice', ' 00123 '))),
    });
    expect(tokenOf(ans)).toMatch(TOKEN);
    expect((await lastCall()).warnings).toEqual([]);
  });
});

describe('D3: XML-level errors are a 400 with an empty body, not a Fault', () => {
  const good = envelope('1.1', op17('alice', ' 00123 '));
  const cases: Array<[string, string]> = [
    ['malformed XML', good.replace('</soap:Body>', '')],
    ['a DTD', `<!DOCTYPE r [<!ELEMENT r ANY>]>${good.replace(/^<\?xml[^>]*\?>/, '')}`],
    ['an undeclared entity', good.replace('alice', 'a&nbsp;b')],
    ['an empty body', ''],
  ];
  it.each(cases)(
    '%s over SOAP 1.1 and 1.2: 400, no body, journaled as malformed_request, no token',
    async (_n, xml) => {
      for (const v of ['1.1', '1.2'] as const) {
        const body =
          v === '1.1'
            ? xml
            : xml
                .replaceAll('soap:', 'soap12:')
                .replace(`xmlns:soap12="${NS11}"`, `xmlns:soap12="${NS12}"`)
                .replace('xmlns:soap=', 'xmlns:soap12=');
        const ans = await rawRequest(AUTH(), { headers: soapHeaders(v), body: Buffer.from(body) });
        expect(ans.status, `${v}: ${ans.text}`).toBe(400);
        expect(ans.text).toBe('');
        expect(ans.headers['content-length']).toBe('0');
        expect(ans.headers['x-api-version']).toMatch(/^1\.7\./);
        expect(await lastCall()).toMatchObject({
          outcome: 'malformed_request',
          httpStatus: 400,
          transactionCode: '1000',
        });
      }
      expect(await tokenCount()).toBe(0);
    },
  );
});

describe('D4: Content-Type and envelope that disagree', () => {
  it('a SOAP 1.2 envelope sent as text/xml (with SOAPAction) is read and answered as SOAP 1.2, with a warning', async () => {
    const ans = await rawRequest(AUTH(), {
      headers: soapHeaders('1.1'),
      body: Buffer.from(envelope('1.2', op17('alice', ' 00123 '))),
    });
    expect(tokenOf(ans)).toMatch(TOKEN);
    expect(ans.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect(answerBody(ans).ns).toBe(NS12);
    const call = await lastCall();
    expect(call.variant).toBe('soap12');
    expect(call.warnings).toContain(
      'soap12_as_text_xml: a SOAP 1.2 envelope sent as text/xml: read and answered as SOAP 1.2 as ASMX does',
    );
  });

  it.each([
    [
      'a SOAP 1.1 envelope as application/soap+xml',
      soapHeaders('1.2'),
      envelope('1.1', op17('alice', ' 00123 ')),
    ],
    // With a SOAPAction, ASMX routes on it and then refuses the media type (ReadParameters); without
    // one it reads the Body to route first (docs/spec-rules.md D10).
    [
      'application/json (with a SOAPAction)',
      { 'content-type': 'application/json', SOAPAction: `"${ACTION}"` },
      '{"Username":"alice","Password":" 00123 "}',
    ],
    [
      'no Content-Type (with a SOAPAction)',
      { SOAPAction: `"${ACTION}"` },
      envelope('1.1', op17('alice', ' 00123 ')),
    ],
  ])('%s is a 415 with an empty body, journaled as unsupported_media_type', async (_n, headers, body) => {
    const ans = await rawRequest(AUTH(), { headers, body: Buffer.from(body) });
    expect(ans.status).toBe(415);
    expect(ans.text).toBe('');
    expect(await lastCall()).toMatchObject({
      outcome: 'unsupported_media_type',
      httpStatus: 415,
      transactionCode: '1002',
    });
    expect(await tokenCount()).toBe(0);
  });
});

describe('D5: mustUnderstand', () => {
  it('a mustUnderstand header for another actor is a MustUnderstand Fault with no detail element', async () => {
    const xml = envelope('1.1', op17('alice', ' 00123 ')).replace(
      '<soap:Body>',
      '<soap:Header><w:T xmlns:w="urn:x" soap:mustUnderstand="1" soap:actor="urn:proxy">t</w:T></soap:Header><soap:Body>',
    );
    const ans = await rawRequest(AUTH(), { headers: soapHeaders('1.1'), body: Buffer.from(xml) });
    expect(ans.status).toBe(500);
    const fault = answerBody(ans).body['soap:Fault'] as Record<string, unknown>;
    expect(fault.faultcode).toBe('soap:MustUnderstand');
    expect(Object.keys(fault)).toEqual(['faultcode', 'faultstring']);
    expect(await tokenCount()).toBe(0);
  });
});

describe('D6: charsets as .NET reads them', () => {
  const call = (username: string, password: string) => envelope('1.1', op17(username, password));
  const withCharset = (charset: string) => ({
    ...soapHeaders('1.1'),
    'content-type': `text/xml; charset=${charset}`,
  });
  /** Bytes of `text` in a charset Python knows (an encoder independent of the one under test). */
  const pyEncode = (text: string, codec: string): Buffer =>
    execFileSync(
      '/usr/bin/python3',
      ['-c', `import sys; sys.stdout.buffer.write(sys.stdin.read().encode(${JSON.stringify(codec)}))`],
      {
        input: text,
      },
    );

  it('a "€uro" password sent in windows-1252 logs in (0x80 is €, not U+0080), over SOAP 1.1 and 1.2', async () => {
    const bytes = pyEncode(call('euro', '€uro'), 'cp1252');
    expect(bytes.includes(Buffer.from([0x80, 0x75, 0x72, 0x6f]))).toBe(true);
    expect(tokenOf(await rawRequest(AUTH(), { headers: withCharset('windows-1252'), body: bytes }))).toMatch(
      TOKEN,
    );
    const v12 = pyEncode(envelope('1.2', op17('euro', '€uro')), 'cp1252');
    const ans = await rawRequest(AUTH(), {
      headers: { 'content-type': `application/soap+xml; charset=windows-1252; action="${ACTION}"` },
      body: v12,
    });
    expect(tokenOf(ans)).toMatch(TOKEN);
  });

  it('smart quotes, dashes and the ellipsis in windows-1252 (cp1252 and x-cp1252 labels too) log in', async () => {
    for (const label of ['windows-1252', 'cp1252', 'x-cp1252']) {
      const bytes = pyEncode(call('quotes', '„smart“ ‘quotes’ – …'), 'cp1252');
      expect(tokenOf(await rawRequest(AUTH(), { headers: withCharset(label), body: bytes })), label).toMatch(
        TOKEN,
      );
    }
  });

  // Every WHATWG single-byte encoding Node decodes, against Python's codec for it: the username the
  // journal shows is the service's reading of bytes 0x80-0xFF (those the codec defines).
  const SINGLE_BYTE: Array<[string, string]> = [
    ['ibm866', 'cp866'],
    ['iso-8859-2', 'iso8859_2'],
    ['iso-8859-3', 'iso8859_3'],
    ['iso-8859-4', 'iso8859_4'],
    ['iso-8859-5', 'iso8859_5'],
    ['iso-8859-6', 'iso8859_6'],
    ['iso-8859-7', 'iso8859_7'],
    ['iso-8859-8', 'iso8859_8'],
    ['iso-8859-10', 'iso8859_10'],
    ['iso-8859-13', 'iso8859_13'],
    ['iso-8859-14', 'iso8859_14'],
    ['iso-8859-15', 'iso8859_15'],
    ['koi8-r', 'koi8_r'],
    ['koi8-u', 'koi8_u'],
    ['macintosh', 'mac_roman'],
    ['windows-874', 'cp874'],
    ['windows-1250', 'cp1250'],
    ['windows-1251', 'cp1251'],
    ['windows-1252', 'cp1252'],
    ['windows-1253', 'cp1253'],
    ['windows-1254', 'cp1254'],
    ['windows-1255', 'cp1255'],
    ['windows-1256', 'cp1256'],
    ['windows-1257', 'cp1257'],
    ['windows-1258', 'cp1258'],
    ['x-mac-cyrillic', 'mac_cyrillic'],
  ];
  it.each(SINGLE_BYTE)(
    "%s: every byte above 0x7F reads as Python's %s codec reads it",
    async (label, codec) => {
      const script = `import sys
bs = bytes(b for b in range(0x80, 0x100) if b != 0xa0)
out = bytearray()
for b in bs:
    try:
        bytes([b]).decode(${JSON.stringify(codec)}); out.append(b)
    except UnicodeDecodeError:
        pass
sys.stdout.buffer.write(bytes(out)); sys.stdout.buffer.write(b"|"); sys.stdout.buffer.write(bytes(out).decode(${JSON.stringify(codec)}).encode("utf-8"))`;
      const outBytes = execFileSync('/usr/bin/python3', ['-c', script]);
      const bar = outBytes.indexOf(0x7c);
      const raw = outBytes.subarray(0, bar);
      const expected = outBytes.subarray(bar + 1).toString('utf8');
      const [head, tail] = call('@@', 'pw').split('@@') as [string, string];
      const body = Buffer.concat([Buffer.from(head), raw, Buffer.from(tail)]);
      const ans = await rawRequest(AUTH(), { headers: withCharset(label), body });
      expect(ans.status, ans.text).toBe(200);
      expect((await lastCall()).username).toBe(expected);
    },
  );

  it.each([
    ['iso-8859-1', '\u0080\u00e9'],
    ['latin1', '\u0080\u00e9'],
    ['ibm819', '\u0080\u00e9'],
    ['csisolatin1', '\u0080\u00e9'],
    ['us-ascii', '??'],
  ])(
    'charset=%s reads bytes 0x80 0xE9 as .NET does (Latin-1 byte for byte; ASCII as "?")',
    async (label, expected) => {
      const [head, tail] = call('@@', 'pw').split('@@') as [string, string];
      const body = Buffer.concat([Buffer.from(head), Buffer.from([0x80, 0xe9]), Buffer.from(tail)]);
      const ans = await rawRequest(AUTH(), { headers: withCharset(label), body });
      expect(ans.status, ans.text).toBe(200);
      expect((await lastCall()).username).toBe(expected);
    },
  );

  it('UTF-32 logs in: with a byte order mark (LE and BE) and as charset=utf-32 without one (little-endian)', async () => {
    const text = call('euro', '€uro').replace('encoding="utf-8"', 'encoding="utf-32"');
    const le = pyEncode(text, 'utf-32-le');
    const be = pyEncode(text, 'utf-32-be');
    for (const [name, headers, body] of [
      ['LE with BOM', withCharset('utf-32'), Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), le])],
      [
        'BE with BOM',
        { ...soapHeaders('1.1'), 'content-type': 'text/xml' },
        Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), be]),
      ],
      ['charset=utf-32, no BOM', withCharset('utf-32'), le],
    ] as const) {
      expect(tokenOf(await rawRequest(AUTH(), { headers, body })), name).toMatch(TOKEN);
    }
  });

  it('charset=utf-16 without a byte order mark is read little-endian: LE bytes log in, BE bytes are unreadable XML (400)', async () => {
    const text = call('euro', '€uro').replace('encoding="utf-8"', 'encoding="utf-16"');
    const le = await rawRequest(AUTH(), {
      headers: withCharset('utf-16'),
      body: pyEncode(text, 'utf-16-le'),
    });
    expect(tokenOf(le)).toMatch(TOKEN);
    const be = await rawRequest(AUTH(), {
      headers: withCharset('utf-16'),
      body: pyEncode(text, 'utf-16-be'),
    });
    expect(be.status).toBe(400);
    expect(be.text).toBe('');
  });

  it('invalid UTF-8 under charset=utf-8 is read as U+FFFD and the call goes on, with a journal warning', async () => {
    const [head, tail] = call('@@', 'x').split('@@') as [string, string];
    const body = Buffer.concat([
      Buffer.from(head),
      Buffer.from([0x61, 0xc3, 0x28, 0xff, 0x62]),
      Buffer.from(tail),
    ]);
    const ans = await rawRequest(AUTH(), { headers: withCharset('utf-8'), body });
    expect(ans.status).toBe(200);
    expect(ans.text).toContain('<TransactionCode>1200</TransactionCode>');
    const row = await lastCall();
    expect(row.username).toBe('a\ufffd(\ufffdb');
    expect(row.warnings).toContain(
      "invalid_bytes_replaced: The request body is not valid UTF-8 (charset from the Content-Type); each invalid sequence was read as U+FFFD, as .NET's decoder does",
    );
  });

  it('invalid UTF-8 with no charset anywhere is unreadable XML to XmlTextReader: 400, empty body', async () => {
    const [head, tail] = envelope('1.2', op17('@@', 'x')).split('@@') as [string, string];
    const body = Buffer.concat([Buffer.from(head), Buffer.from([0xc3, 0x28]), Buffer.from(tail)]);
    const ans = await rawRequest(AUTH(), { headers: { 'content-type': 'application/soap+xml' }, body });
    expect(ans.status).toBe(400);
    expect(ans.text).toBe('');
  });
});

describe('D10: where the emulator stays more lenient than ASMX, the journal says so', () => {
  it('text/xml without a charset and non-ASCII bytes: read as UTF-8 (ASMX: US-ASCII), with a warning', async () => {
    const ans = await rawRequest(AUTH(), {
      headers: { 'content-type': 'text/xml', SOAPAction: `"${ACTION}"` },
      body: Buffer.from(envelope('1.1', op17('euro', '€uro'))),
    });
    expect(tokenOf(ans)).toMatch(TOKEN);
    expect((await lastCall()).warnings).toContain(
      'text_xml_without_charset: non-ASCII bytes in a text/xml body with no charset parameter: ASMX reads such a body as US-ASCII ("?" for each of them); declare charset=utf-8',
    );
    // Plain ASCII without a charset reads the same either way: no warning.
    await rawRequest(AUTH(), {
      headers: { 'content-type': 'text/xml', SOAPAction: `"${ACTION}"` },
      body: Buffer.from(envelope('1.1', op17('alice', ' 00123 '))),
    });
    expect((await lastCall()).warnings).toEqual([]);
  });
});

describe('docs/spec-rules.md "SOAP as ASMX answers it"', () => {
  const ROOT = new URL('../', import.meta.url).pathname;
  const doc = readFileSync(join(ROOT, 'docs/spec-rules.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### SOAP as ASMX answers it'), doc.indexOf('### Admin API'));
  const rows = section
    .split('\n')
    .filter((l) => /^\| D\d+ \|/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  const source = readdirSync(join(ROOT, 'src/api'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(ROOT, 'src/api', f), 'utf8'))
    .join('\n');

  it('has a row for each of D1 to D6, each naming a .NET method', () => {
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(['D1', 'D2', 'D3', 'D4', 'D5', 'D6']));
    for (const row of rows) expect(row[3], row.join(' | ')).toMatch(/`\w+(\.\w+)*`/);
  });

  it('names tests that exist and warnings the code writes', () => {
    for (const [id, , , , warning, tests] of rows as string[][]) {
      for (const part of tests!.split(';')) {
        const file = /`(test\/[\w.-]+)`/.exec(part)?.[1] ?? 'test/getaccesstoken-asmx-answers.test.ts';
        const text = readFileSync(join(ROOT, file), 'utf8');
        const names = [...part.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
        expect(names.length, `${id}: ${part}`).toBeGreaterThan(0);
        for (const name of names) expect(text, `${id} names "${name}" in ${file}`).toContain(name);
      }
      const code = /`(\w+)`/.exec(warning ?? '')?.[1];
      if (code) expect(source, `${id}: warning ${code}`).toContain(`${code}: `);
    }
  });
});

/**
 * The HAR 1.2 format as a JSON Schema (draft 2020-12), written from the specification
 * (http://www.softwareishard.com/blog/har-12-spec/): every object and member it defines, required
 * where the text says so, with the types it gives. Custom members must begin with `_` (spec "Custom
 * fields"), so every object refuses other unknown members. No official schema is published.
 */
const str = { type: 'string' };
const int = { type: 'integer' };
const num = { type: 'number' };
const comment = str;
/** ISO 8601 date-time, as `startedDateTime` and cookie `expires` must be. */
const isoDate = {
  type: 'string',
  pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?(Z|[+-]\\d\\d:\\d\\d)$',
};

function obj(properties: Record<string, unknown>, required: string[]) {
  return {
    type: 'object',
    properties,
    required,
    patternProperties: { '^_': {} },
    additionalProperties: false,
  };
}

const nameValue = obj({ name: str, value: str, comment }, ['name', 'value']);
const cookie = obj(
  {
    name: str,
    value: str,
    path: str,
    domain: str,
    expires: { anyOf: [isoDate, { type: 'null' }] },
    httpOnly: { type: 'boolean' },
    secure: { type: 'boolean' },
    comment,
  },
  ['name', 'value'],
);
const postData = obj(
  {
    mimeType: str,
    params: {
      type: 'array',
      items: obj({ name: str, value: str, fileName: str, contentType: str, comment }, ['name']),
    },
    text: str,
    comment,
  },
  ['mimeType'],
);
const request = obj(
  {
    method: str,
    url: { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*://' },
    httpVersion: str,
    cookies: { type: 'array', items: cookie },
    headers: { type: 'array', items: nameValue },
    queryString: { type: 'array', items: nameValue },
    postData,
    headersSize: int,
    bodySize: int,
    comment,
  },
  ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
);
const content = obj({ size: int, compression: int, mimeType: str, text: str, encoding: str, comment }, [
  'size',
  'mimeType',
]);
const response = obj(
  {
    status: int,
    statusText: str,
    httpVersion: str,
    cookies: { type: 'array', items: cookie },
    headers: { type: 'array', items: nameValue },
    content,
    redirectURL: str,
    headersSize: int,
    bodySize: int,
    comment,
  },
  [
    'status',
    'statusText',
    'httpVersion',
    'cookies',
    'headers',
    'content',
    'redirectURL',
    'headersSize',
    'bodySize',
  ],
);
const beforeAfter = obj({ expires: isoDate, lastAccess: isoDate, eTag: str, hitCount: int, comment }, [
  'lastAccess',
  'eTag',
  'hitCount',
]);
const cache = obj(
  {
    beforeRequest: { anyOf: [beforeAfter, { type: 'null' }] },
    afterRequest: { anyOf: [beforeAfter, { type: 'null' }] },
    comment,
  },
  [],
);
const optionalTime = { type: 'number', minimum: -1 };
const timings = obj(
  {
    blocked: optionalTime,
    dns: optionalTime,
    connect: optionalTime,
    send: { type: 'number', minimum: 0 },
    wait: { type: 'number', minimum: 0 },
    receive: { type: 'number', minimum: 0 },
    ssl: optionalTime,
    comment,
  },
  ['send', 'wait', 'receive'],
);
const entry = obj(
  {
    pageref: str,
    startedDateTime: isoDate,
    time: { type: 'number', minimum: 0 },
    request,
    response,
    cache,
    timings,
    serverIPAddress: str,
    connection: str,
    comment,
  },
  ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
);
const page = obj(
  {
    startedDateTime: isoDate,
    id: str,
    title: str,
    pageTimings: obj({ onContentLoad: num, onLoad: num, comment }, []),
    comment,
  },
  ['startedDateTime', 'id', 'title', 'pageTimings'],
);
const creator = obj({ name: str, version: str, comment }, ['name', 'version']);

export const HAR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://reportbo-emulator.test/har-1.2.schema.json',
  type: 'object',
  required: ['log'],
  additionalProperties: false,
  properties: {
    log: obj(
      {
        version: { const: '1.2' },
        creator,
        browser: creator,
        pages: { type: 'array', items: page },
        entries: { type: 'array', items: entry },
        comment,
      },
      ['version', 'creator', 'entries'],
    ),
  },
};

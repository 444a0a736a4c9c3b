/** The OpenAPI 3.1 document of the admin API (docs/admin-api.md), served at `GET /__admin/openapi.json`. */
import { API_VERSIONS, VARIANTS } from '../auth/types.js';
import { NOTIFICATION_STATES } from '../delivery/notification.js';
import { componentSchemas } from './openapi-schemas.js';

type Json = Record<string, unknown>;
type Method = 'get' | 'post' | 'delete';

interface Operation {
  method: Method;
  /** Path below `/__admin`, OpenAPI style (`/credentials/{id}`). */
  path: string;
  tag: string;
  summary: string;
  /** Component name of the JSON request body. */
  body?: string;
  query?: Array<{ name: string; schema: Json; description: string }>;
  /** Status → component name (or null for no body). */
  ok: Record<number, string | null>;
  /** Error statuses this operation answers with a Problem. */
  errors?: number[];
  /** Media type of the success answer when it is not JSON (the dashboard, the live stream). */
  media?: string;
}

const stateQuery = {
  name: 'state',
  schema: { enum: [...NOTIFICATION_STATES] },
  description: 'only this state',
};

/** Every admin route. A test checks this list against the routes the app really serves. */
export const ADMIN_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/health',
    tag: 'health',
    summary: '{"status":"ok"} once ready, 503 "starting" before',
    ok: { 200: 'Health', 503: 'Health' },
  },
  { method: 'get', path: '/openapi.json', tag: 'health', summary: 'this document', ok: { 200: null } },
  {
    method: 'get',
    path: '/config',
    tag: 'health',
    summary: 'effective settings (no secrets), as the start log line lists them',
    ok: { 200: 'EffectiveConfig' },
  },
  {
    method: 'post',
    path: '/reset',
    tag: 'health',
    summary:
      'forget reservations, notifications, tokens, journal and faults; keep users, credentials, settings',
    ok: { 200: null },
  },
  { method: 'get', path: '/credentials', tag: 'delivery', summary: 'list credentials', ok: { 200: null } },
  {
    method: 'post',
    path: '/credentials',
    tag: 'delivery',
    summary: 'add a credential (id generated when absent); http:// only with --allow-http',
    body: 'CredentialInput',
    ok: { 201: 'Credential' },
    errors: [400, 409],
  },
  {
    method: 'delete',
    path: '/credentials/{id}',
    tag: 'delivery',
    summary:
      'delete a credential; its pending notifications are cancelled (state cancelled, cancelReason credential_deleted)',
    ok: { 204: null },
    errors: [404],
  },
  {
    method: 'get',
    path: '/trust',
    tag: 'delivery',
    summary: 'certificates trusted for https:// destinations besides the system roots',
    ok: { 200: 'TrustList' },
  },
  {
    method: 'post',
    path: '/trust',
    tag: 'delivery',
    summary:
      'trust the CA certificate(s) for later deliveries; JSON {"pem"} or the PEM text itself as the body (curl --data-binary @ca.pem)',
    body: 'TrustInput',
    ok: { 201: 'TrustResult' },
    errors: [400],
  },
  {
    method: 'delete',
    path: '/trust/{fingerprint}',
    tag: 'delivery',
    summary:
      'stop trusting the certificate with this SHA-256 fingerprint (as GET /trust lists it; colons and case optional)',
    ok: { 204: null },
    errors: [404],
  },
  {
    method: 'post',
    path: '/events',
    tag: 'delivery',
    summary: 'emit Issue, Void or Exchange; answers at once, delivery runs in the background',
    body: 'EventInput',
    ok: { 202: 'EventResult' },
    errors: [400, 404, 409],
  },
  {
    method: 'get',
    path: '/reservations',
    tag: 'delivery',
    summary: 'reservations and their BookingStatus',
    ok: { 200: null },
  },
  {
    method: 'get',
    path: '/reservations/{bookingId}',
    tag: 'delivery',
    summary: 'one reservation with its last body and history',
    ok: { 200: 'Reservation' },
    errors: [404],
  },
  {
    method: 'post',
    path: '/reservations/{bookingId}/redeliver',
    tag: 'delivery',
    summary: 'manual redelivery with the chosen status (spec "Endpoints 2")',
    body: 'RedeliverInput',
    ok: { 202: 'EventResult' },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/notifications',
    tag: 'delivery',
    summary: 'notification summaries; wait=settled holds the answer until no matching delivery is in flight',
    query: [
      stateQuery,
      { name: 'credentialId', schema: { type: 'string' }, description: 'only this credential' },
      { name: 'bookingId', schema: { type: 'integer' }, description: 'only this reservation' },
      {
        name: 'wait',
        schema: { enum: ['settled'] },
        description: 'wait until no matching attempt is queued or running',
      },
      {
        name: 'timeoutMs',
        schema: { type: 'integer', default: 10000, maximum: 300000 },
        description: 'longest wait; then settled=false',
      },
    ],
    ok: { 200: 'NotificationList' },
    errors: [400],
  },
  {
    method: 'get',
    path: '/notifications/{id}',
    tag: 'delivery',
    summary: 'one notification with headers, body and attempts',
    ok: { 200: 'Notification' },
    errors: [404],
  },
  {
    method: 'post',
    path: '/verify',
    tag: 'verify',
    summary:
      'run the receiver conformance kit (reportbo-emulator verify) against a receiver; answers the report verify --json writes (docs/verify.md)',
    body: 'VerifyInput',
    ok: { 200: 'VerifyReport' },
    errors: [400],
  },
  {
    method: 'post',
    path: '/notifications/{id}/retry',
    tag: 'delivery',
    summary:
      'retry now: one attempt of a pending notification at once, outside the batch schedule (trigger "manual"); it counts toward the 5 attempts; answers when the attempt ended',
    ok: { 200: 'RetryResult' },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/redelivery/run',
    tag: 'delivery',
    summary:
      'run a redelivery batch now, at the current emulator time; notAttempted says why pending notifications were left out',
    ok: { 200: 'BatchResult' },
  },
  {
    method: 'get',
    path: '/redelivery/batches',
    tag: 'delivery',
    summary: 'batches run so far, and batch instants skipped with their reason',
    ok: { 200: null },
  },
  {
    method: 'get',
    path: '/clock',
    tag: 'clock',
    summary: 'clock mode, emulator now, next batch',
    ok: { 200: 'ClockState' },
  },
  {
    method: 'post',
    path: '/clock/advance',
    tag: 'clock',
    summary: 'move a manual clock; every crossed minute-55 batch finishes first',
    body: 'AdvanceInput',
    ok: { 200: 'AdvanceResult' },
    errors: [400, 409],
  },
  {
    method: 'get',
    path: '/users',
    tag: 'getaccesstoken',
    summary: 'list GetAccessToken users (without passwords)',
    ok: { 200: null },
  },
  {
    method: 'post',
    path: '/users',
    tag: 'getaccesstoken',
    summary: 'add a user; the answer never carries the password',
    body: 'UserInput',
    ok: { 201: 'User' },
    errors: [400, 409],
  },
  {
    method: 'delete',
    path: '/users/{username}',
    tag: 'getaccesstoken',
    summary: 'delete a user',
    ok: { 204: null },
    errors: [404],
  },
  {
    method: 'get',
    path: '/tokens',
    tag: 'getaccesstoken',
    summary: 'issued tokens with expiry (8 h of emulator time)',
    query: [{ name: 'username', schema: { type: 'string' }, description: 'only this user' }],
    ok: { 200: null },
  },
  {
    method: 'delete',
    path: '/tokens/{token}',
    tag: 'getaccesstoken',
    summary: 'revoke a token',
    ok: { 204: null },
    errors: [404],
  },
  {
    method: 'get',
    path: '/requests',
    tag: 'getaccesstoken',
    summary: 'journal of GetAccessToken calls, oldest first',
    query: [
      { name: 'version', schema: { enum: [...API_VERSIONS] }, description: 'only this API version' },
      {
        name: 'variant',
        schema: { enum: [...VARIANTS] },
        description: 'only this variant',
      },
      { name: 'username', schema: { type: 'string' }, description: 'only this user' },
      { name: 'outcome', schema: { type: 'string' }, description: 'only this outcome, e.g. success' },
    ],
    ok: { 200: null },
  },
  {
    method: 'get',
    path: '/faults',
    tag: 'getaccesstoken',
    summary: 'active GetAccessToken faults',
    ok: { 200: null },
  },
  {
    method: 'post',
    path: '/faults',
    tag: 'getaccesstoken',
    summary: 'make the next N (or a fraction of) calls late, 5xx, malformed or dropped',
    body: 'FaultInput',
    ok: { 201: 'Fault' },
    errors: [400],
  },
  {
    method: 'delete',
    path: '/faults',
    tag: 'getaccesstoken',
    summary: 'remove every fault',
    ok: { 204: null },
  },
  {
    method: 'delete',
    path: '/faults/{id}',
    tag: 'getaccesstoken',
    summary: 'remove one fault',
    ok: { 204: null },
    errors: [404],
  },
  {
    method: 'get',
    path: '/outages',
    tag: 'delivery',
    summary: 'simulated outages of the receiver, with their status and the attempts they failed',
    ok: { 200: null },
  },
  {
    method: 'post',
    path: '/outages',
    tag: 'delivery',
    summary:
      'fail the next N attempts, or every attempt in a window of emulator time, as simulated_outage (the receiver is never contacted)',
    body: 'OutageInput',
    ok: { 201: 'Outage' },
    errors: [400],
  },
  {
    method: 'delete',
    path: '/outages',
    tag: 'delivery',
    summary: 'remove every outage',
    ok: { 204: null },
  },
  {
    method: 'get',
    path: '/outages/{id}',
    tag: 'delivery',
    summary: 'one outage',
    ok: { 200: 'Outage' },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/outages/{id}',
    tag: 'delivery',
    summary: 'remove one outage',
    ok: { 204: null },
    errors: [404],
  },
  {
    method: 'get',
    path: '/stream',
    tag: 'live',
    summary:
      'Server-Sent Events: hello (the clock), then one event per activity named by its kind: event, notification_created, attempt, batch, clock, token, admin; resync when some were dropped',
    ok: { 200: 'Activity' },
    media: 'text/event-stream',
  },
  {
    method: 'get',
    path: '/ui',
    tag: 'live',
    summary: 'the live dashboard (HTML; / and /__admin redirect here)',
    ok: { 200: null },
    media: 'text/html',
  },
  {
    method: 'get',
    path: '/ui/{file}',
    tag: 'live',
    summary: "the dashboard's script modules and style (dashboard.js, dashboard.css, …)",
    ok: { 200: null },
    errors: [404],
    media: 'text/plain',
  },
  {
    method: 'post',
    path: '/scenarios/run',
    tag: 'scenarios',
    summary:
      'run the steps of the scenario loaded with serve --scenario; 404 when none is loaded, 409 while it runs',
    ok: { 200: 'ScenarioRunResult' },
    errors: [404, 409],
  },
];

/** Wrapped lists (`{"credentials":[…]}`) by operation, so the table above stays one line each. */
const LIST_ANSWERS: Record<string, [string, string]> = {
  'get /credentials': ['credentials', 'Credential'],
  'get /reservations': ['reservations', 'ReservationSummary'],
  'get /redelivery/batches': ['batches', 'BatchResult'],
  'get /users': ['users', 'User'],
  'get /tokens': ['tokens', 'Token'],
  'get /requests': ['requests', 'JournalEntry'],
  'get /faults': ['faults', 'Fault'],
  'get /outages': ['outages', 'Outage'],
};

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json): Json => ({ content: { 'application/json': { schema } } });

function answer(op: Operation, status: number, component: string | null): Json {
  const list = LIST_ANSWERS[`${op.method} ${op.path}`];
  if (list) {
    const [key, item] = list;
    return {
      description: 'OK',
      ...json({
        type: 'object',
        properties: { [key]: { type: 'array', items: ref(item) } },
        required: [key],
      }),
    };
  }
  if (op.path === '/reset')
    return { description: 'reset', ...json({ type: 'object', properties: { status: { const: 'reset' } } }) };
  if (op.path === '/openapi.json')
    return { description: 'OpenAPI 3.1 document', ...json({ type: 'object' }) };
  if (op.media === 'text/event-stream') {
    return {
      description: "an endless stream; each event's data is one Activity as JSON",
      content: { [op.media]: { schema: { type: 'string' }, itemSchema: ref(component ?? 'Activity') } },
    };
  }
  if (op.media) return { description: 'OK', content: { [op.media]: { schema: { type: 'string' } } } };
  return component
    ? { description: status < 300 ? 'OK' : 'not ready', ...json(ref(component)) }
    : { description: 'no content' };
}

function operation(op: Operation): Json {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: m[1] === 'bookingId' ? { type: 'integer' } : { type: 'string' },
  }));
  const query = (op.query ?? []).map((q) => ({
    name: q.name,
    in: 'query',
    required: false,
    schema: q.schema,
    description: q.description,
  }));
  const responses: Json = {};
  for (const [status, component] of Object.entries(op.ok))
    responses[status] = answer(op, Number(status), component);
  for (const status of op.errors ?? []) responses[status] = { description: 'error', ...json(ref('Problem')) };
  responses.default = { description: 'error', ...json(ref('Problem')) };
  return {
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[/.](\w)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [op.tag],
    summary: op.summary,
    ...(params.length + query.length > 0 ? { parameters: [...params, ...query] } : {}),
    ...(op.body ? { requestBody: { required: true, ...json(ref(op.body)) } } : {}),
    responses,
  };
}

/** Builds the document; `version` is the package version. */
export function buildOpenApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of ADMIN_OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operation(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reportbo-emulator admin API',
      version,
      description:
        'Drives the emulator: credentials, events, notifications and their attempts, the clock, GetAccessToken users, tokens, journal and faults. Times are emulator time unless a name ends in Wall. A path called with a method it does not take answers 405 (method_not_allowed) with an Allow header; OPTIONS answers 204 with Allow. Answers never carry a password. See docs/admin-api.md.',
    },
    servers: [{ url: '/__admin' }],
    tags: [
      { name: 'health', description: 'readiness and reset' },
      { name: 'delivery', description: 'credentials, events, reservations, notifications, redelivery' },
      { name: 'clock', description: 'the emulator clock' },
      { name: 'getaccesstoken', description: 'users, tokens, request journal, fault injection' },
      { name: 'scenarios', description: 'the scenario preloaded with serve --scenario' },
      { name: 'verify', description: 'the receiver conformance kit' },
      { name: 'live', description: 'the live stream and the dashboard built on it' },
    ],
    paths,
    components: { schemas: componentSchemas() },
  };
}

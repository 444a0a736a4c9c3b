import { createHash } from 'node:crypto';
import { ADMIN_ROUTES } from '../../src/admin/contract/routes.js';
import { http } from './http.js';

type Operation = keyof typeof ADMIN_ROUTES;

/** GETs whose answer is not the emulator's state, and why. */
export const NOT_STATE: Partial<Record<Operation, string>> = {
  health: 'readiness and uptime, not state',
  openApi: 'the API document',
  notificationOpenApi: 'the notification contract document',
  notificationAsyncApi: 'the notification contract document',
  config: 'the settings (the port changes from one start to the next), not state',
  exportNotifications: 'the notifications of listNotifications in another format',
  stream: 'an endless stream',
  ui: 'the dashboard page',
  uiFile: 'a dashboard file',
};

/**
 * Members of an answer that a restart does not keep, by design, and why: left out of every reading.
 */
export const NOT_KEPT: Partial<Record<Operation, { member: string; why: string }>> = {
  getRequest: {
    member: 'exchange',
    why: 'the call as sent and answered is kept in memory for the newest 500 calls only, never in the data dir (decision 0141): after a restart it is null',
  },
};

/** One GET of the state: which operation, on which path, and what it answered. */
export interface StateRead {
  operation: Operation;
  path: string;
  status: number;
  /** The parsed JSON answer, or the SHA-256 of a binary one (a body.gz). */
  body: unknown;
}

/** Where a state GET is read: its operation and path. */
export type StatePath = Pick<StateRead, 'operation' | 'path'>;

const STATE_GETS = (
  Object.entries(ADMIN_ROUTES) as Array<[Operation, (typeof ADMIN_ROUTES)[Operation]]>
).filter(([op, r]) => r.method === 'get' && !(op in NOT_STATE));

/**
 * Every GET of the route table that answers state, answered now: the list GETs, and each GET with
 * path parameters once per item of the list GET its path extends (`/reservations/:bookingId` for
 * every `bookingId` of `GET /reservations`), so a replay that loses what only a detail shows (a
 * reservation's history, an attempt's answer) is seen; `also` adds paths of another emulator (a
 * detail GET of an item this one may not list). Keyed by path.
 */
export async function readState(
  url: string,
  also: Iterable<StatePath> = [],
): Promise<Map<string, StateRead>> {
  const out = await readLists(url);
  for (const { operation, path } of [...detailPaths(out), ...also])
    if (!out.has(path)) out.set(path, comparable({ operation, path, ...(await get(url, path)) }));
  return out;
}

/** The paths `readState` would read now: the lists are read, their items' detail GETs are not. */
export async function statePaths(url: string): Promise<StatePath[]> {
  const lists = await readLists(url);
  return [...lists.values(), ...detailPaths(lists)];
}

/** The list GETs (those without path parameters), once the notifications have settled. */
async function readLists(url: string): Promise<Map<string, StateRead>> {
  await get(url, '/notifications?wait=settled');
  const out = new Map<string, StateRead>();
  for (const [operation, r] of STATE_GETS)
    if (!r.path.includes(':'))
      out.set(r.path, comparable({ operation, path: r.path, ...(await get(url, r.path)) }));
  return out;
}

/** Each GET with path parameters once per item of the list GET its path extends. */
function detailPaths(lists: Map<string, StateRead>): StatePath[] {
  return STATE_GETS.flatMap(([operation, r]) => {
    const param = /\/:(\w+)/.exec(r.path);
    if (!param) return [];
    const list = lists.get(r.path.slice(0, param.index))?.body;
    return idsIn(list, param[1]!).map((value) => ({
      operation,
      path: r.path.replace(`:${param[1]}`, encodeURIComponent(String(value))),
    }));
  });
}

/**
 * A reading as two of them are compared: without the member its operation does not keep across a
 * restart (NOT_KEPT), delivery stats without their buckets of wall time.
 */
export function comparable(read: StateRead): StateRead {
  const notKept = NOT_KEPT[read.operation]?.member;
  if (notKept && typeof read.body === 'object' && read.body !== null)
    delete (read.body as Record<string, unknown>)[notKept];
  if (read.operation === 'deliveryStats') read.body = withoutTime(read.body);
  return read;
}

/** What differs between two readings: one line per path, naming the operation and each reading. */
export function stateDifferences(
  before: Map<string, StateRead>,
  after: Map<string, StateRead>,
  names: [string, string] = ['before', 'after '],
): string[] {
  const problems: string[] = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(path);
    const a = after.get(path);
    const was = JSON.stringify(b && { status: b.status, body: b.body });
    const is = JSON.stringify(a && { status: a.status, body: a.body });
    if (was !== is)
      problems.push(`GET ${path} (${(b ?? a)!.operation}):\n  ${names[0]} ${was}\n  ${names[1]} ${is}`);
  }
  return problems;
}

/** The values of `name` in the items of a list answer (`{ reservations: [{ bookingId }, …] }`). */
function idsIn(list: unknown, name: string): unknown[] {
  if (typeof list !== 'object' || list === null) return [];
  const items = Object.values(list).find(Array.isArray) as unknown[] | undefined;
  return (items ?? [])
    .map((item) =>
      typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[name] : undefined,
    )
    .filter((v) => v !== undefined);
}

async function get(url: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await http(`${url}/__admin${path}`);
  if (!res.type.includes('json'))
    return { status: res.status, body: `sha256:${createHash('sha256').update(res.body).digest('hex')}` };
  return { status: res.status, body: JSON.parse(res.body.toString()) as unknown };
}

/**
 * Delivery stats as a data dir keeps them: the counts per credential. The window and the timelines
 * are buckets of wall time up to now (decision 0105), so they change with the hour a reading is
 * taken at; the attempts they count are compared through each notification's detail GET.
 */
function withoutTime(body: unknown): unknown {
  const b = body as { window?: unknown; credentials?: Array<{ timeline?: unknown }> };
  delete b.window;
  for (const c of b.credentials ?? []) delete c.timeline;
  return b;
}

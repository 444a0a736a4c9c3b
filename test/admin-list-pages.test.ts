/**
 * Every list of the admin API is a page (issue 43 §1, decision 0236), found from the route table:
 * each GET answering a list declares either the paging members (PAGE_QUERY) or why it needs none
 * (`unpaged`). Each paged list, filled past a page, answers over HTTP a default page of PAGE_LIMIT
 * items with `total` and `nextCursor`; takes `limit` and refuses one out of range or misspelt (naming
 * `limit`); and its cursors walk every item exactly once, from the newest back (`before`) and from
 * the oldest on (`after`), whatever the page length (fast-check).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PAGE_LIMIT, PAGE_QUERY } from '../src/admin/contract/fields.js';
import type { RouteDeclaration } from '../src/admin/contract/route.js';
import { ADMIN_ROUTES } from '../src/admin/contract/routes.js';
import { createApp } from '../src/app.js';
import type { Emulator } from '../src/emulator.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { CLOCK_START } from './helpers/clock.js';
import { addNotifications } from './helpers/many-notifications.js';

/** Items each paged list holds: more than a page. */
const COUNT = PAGE_LIMIT + 234;

type Item = Record<string, unknown>;

/** How to fill a paged list past a page, and what names one of its items (its cursor). */
const FILL: Record<string, { fill: (e: Emulator) => Promise<void>; id: (item: Item) => string }> = {
  listNotifications: {
    fill: async (e) => {
      addNotifications(e, COUNT, { startMs: Date.parse(CLOCK_START) });
    },
    id: (n) => String(n.id),
  },
  listReservations: {
    fill: async (e) => {
      for (let i = 0; i < COUNT; i++) e.reservations.apply({ type: 'Issue' });
    },
    id: (r) => String(r.bookingId),
  },
  listUsers: {
    fill: async (e) => {
      for (let i = 0; i < COUNT; i++)
        e.auth.users.add({ username: `user${i}`, password: 'p', idWeb: i + 1, webDescription: 'x' });
    },
    id: (u) => String(u.username),
  },
  // One GetAccessToken call fills both: a journal entry and a token each.
  listRequests: { fill: async (e) => getAccessTokens(e), id: (r) => String(r.id) },
  listTokens: { fill: async () => {}, id: (t) => String(t.token) },
};

/**
 * COUNT GetAccessToken calls as user0 (listUsers' FILL, before), through the app's own request path
 * (the listing is what is tested over HTTP).
 */
async function getAccessTokens(e: Emulator): Promise<void> {
  const app = createApp(e);
  for (let i = 0; i < COUNT; i++) {
    const res = await app.request('/api/1.7/AuthService.json/GetAccessToken', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'user0', Password: 'p' }),
    });
    expect(res.status).toBe(200);
  }
}

/** The GET routes that answer a list: no path parameter, an array member in the success answer. */
function listRoutes(): Array<[string, RouteDeclaration, string]> {
  const found: Array<[string, RouteDeclaration, string]> = [];
  for (const [name, route] of Object.entries(ADMIN_ROUTES) as Array<[string, RouteDeclaration]>) {
    if (route.method !== 'get' || route.path.includes(':')) continue;
    const answer = route.responses[200];
    if (!(answer instanceof z.ZodObject)) continue;
    const key = Object.entries(answer.shape).find(([, s]) => s instanceof z.ZodArray)?.[0];
    if (key) found.push([name, route, key]);
  }
  return found;
}

const paged = (route: RouteDeclaration) =>
  route.query !== undefined && Object.keys(PAGE_QUERY).every((k) => k in route.query!.shape);

let server: RunningEmulator;

// One emulator for the file (filled once: the data-dir helpers close theirs after each test).
beforeAll(async () => {
  server = await startServer({ port: 0, logLevel: 'silent', clock: 'manual', clockStart: CLOCK_START });
  for (const { fill } of Object.values(FILL)) await fill(server.emulator);
});
afterAll(() => server?.close());

async function get(path: string): Promise<{ status: number; body: Item }> {
  const res = await fetch(`${server.url}/__admin${path}`);
  return { status: res.status, body: (await res.json()) as Item };
}

describe('every admin list is a page (decision 0236)', () => {
  it('every GET that answers a list pages, or says why it needs not', () => {
    const lists = listRoutes();
    expect(lists.length).toBeGreaterThan(5);
    for (const [name, route] of lists) {
      if (paged(route)) expect(FILL[name], `${name} pages: give it a FILL here`).toBeDefined();
      else expect(route.unpaged, `${name} answers a list with no limit and no unpaged reason`).toMatch(/\w/);
    }
    expect(Object.keys(FILL).sort()).toEqual(
      lists
        .filter(([, r]) => paged(r))
        .map(([n]) => n)
        .sort(),
    );
  });

  describe.each(listRoutes().filter(([, r]) => paged(r)))('%s', (name, route, key) => {
    const id = (item: Item) => FILL[name]!.id(item);
    const items = (body: Item) => body[key] as Item[];

    it(`answers a default page of ${PAGE_LIMIT} of ${COUNT}, the newest, with total and nextCursor`, async () => {
      const { status, body } = await get(route.path);
      expect(status).toBe(200);
      expect(items(body)).toHaveLength(PAGE_LIMIT);
      expect(body.total).toBe(COUNT);
      expect(body.nextCursor).toBe(id(items(body)[0]!));
      expect(body.newerCursor).toBeNull();
      const newest = await get(`${route.path}?limit=7`);
      expect(items(newest.body).map(id)).toEqual(items(body).slice(-7).map(id));
    });

    it('refuses a limit out of range and a misspelt member, naming limit', async () => {
      for (const [query, words] of [
        [`limit=${PAGE_LIMIT + 1}`, `limit must be a whole number of at most ${PAGE_LIMIT}`],
        ['limit=0', 'limit must be a whole number of at least 1'],
        ['limt=5', 'unknown query member "limt" (did you mean "limit"?)'],
      ] as const) {
        const { status, body } = await get(`${route.path}?${query}`);
        expect(status, query).toBe(400);
        const error = body.error as { code: string; message: string };
        expect(error.code).toBe('invalid_query');
        expect(error.message).toContain(words);
      }
    });

    it('walks every item exactly once by its cursors, back from the newest and on from the oldest', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 97, max: PAGE_LIMIT }), async (limit) => {
          const back: string[] = [];
          let page = (await get(`${route.path}?limit=${limit}`)).body;
          back.unshift(...items(page).map(id));
          while (page.nextCursor) {
            page = (
              await get(`${route.path}?limit=${limit}&before=${encodeURIComponent(String(page.nextCursor))}`)
            ).body;
            expect(items(page).length).toBeLessThanOrEqual(limit);
            back.unshift(...items(page).map(id));
          }
          const on: string[] = [];
          page = (await get(`${route.path}?limit=${limit}&page=oldest`)).body;
          on.push(...items(page).map(id));
          while (page.newerCursor) {
            page = (
              await get(`${route.path}?limit=${limit}&after=${encodeURIComponent(String(page.newerCursor))}`)
            ).body;
            on.push(...items(page).map(id));
          }
          expect(back).toHaveLength(COUNT);
          expect(new Set(back).size).toBe(COUNT);
          expect(on).toEqual(back);
        }),
        { numRuns: 4, seed: 20261128 },
      );
    });
  });
});

describe('the triage (unpaged: a ranking)', () => {
  it(`answers the ${PAGE_LIMIT} largest groups and how many there are`, async () => {
    const e = await startServer({ port: 0, logLevel: 'silent', clock: 'manual', clockStart: CLOCK_START });
    try {
      // Every third record is exhausted, each with an answer of its own that no digit or id
      // normalising makes alike: one group each.
      const groups = PAGE_LIMIT + 100;
      const letters = (i: number) => [...i.toString(7)].map((d) => 'stuvwxy'[Number(d)]).join('');
      addNotifications(e.emulator, 3 * groups, {
        startMs: Date.parse(CLOCK_START),
        answer: (i) => `refused ${letters(i)}`,
      });
      const res = await fetch(`${e.url}/__admin/triage`);
      expect(res.status).toBe(200);
      const triage = (await res.json()) as { failing: number; groupCount: number; groups: unknown[] };
      expect(triage.failing).toBe(groups);
      expect(triage.groupCount).toBe(groups);
      expect(triage.groups).toHaveLength(PAGE_LIMIT);
    } finally {
      await e.close();
    }
  });
});

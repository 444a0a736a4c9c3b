import { ADMIN_ROUTES } from '../../src/admin/contract/routes.js';

// The reset oracle (issue 38 §5, decision 0250), checked by the restart-equivalence property
// (test/helpers/restart-property.ts) at every reset it draws: right after a reset, every state GET
// of the route table (detail GETs included, those of the items listed before the reset too)
// answers as a fresh start does, given the same settings, the same clock and what reset keeps, the
// writes of KEPT_BY_RESET's lists made again in the same order. It sees a reset that forgets too
// little or too much whatever a restart reads back: the snapshot that reset's compaction writes
// from the live stores may land before the restart or not (decision 0233).

type Operation = keyof typeof ADMIN_ROUTES;

/** The state GETs whose answer a reset keeps (route `reset`: "keep users, credentials, settings"), and why. */
export const KEPT_BY_RESET = {
  listUsers: 'users are kept (product rule "Admin API": reset)',
  listCredentials: 'credentials are kept (product rule "Admin API": reset)',
  listTrusted: 'the trusted certificates are receiver settings, kept with the credentials',
} satisfies Partial<Record<Operation, string>>;

/**
 * The writes of what reset keeps: each write route of the route table on the path of a list of
 * KEPT_BY_RESET or below it (`POST /users`, `PUT /users/:username`, `DELETE /trust/:fingerprint`, …).
 */
export const WRITES_KEPT_BY_RESET: ReadonlySet<string> = new Set(
  Object.entries(ADMIN_ROUTES)
    .filter(
      ([, r]) =>
        r.method !== 'get' &&
        Object.keys(KEPT_BY_RESET).some((op) => {
          const list = ADMIN_ROUTES[op as keyof typeof KEPT_BY_RESET].path;
          return r.path === list || r.path.startsWith(`${list}/`);
        }),
    )
    .map(([op]) => op),
);

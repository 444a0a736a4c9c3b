import type { z } from 'zod';
import { RECEIVER_PREFIX } from './setup.js';

type Issue = { path: PropertyKey[]; message: string };
type Obj = Record<string, unknown>;

/**
 * Checks what a per-field schema cannot: that names used in one place are declared in another
 * (receivers, credentials, `as:` names of earlier steps) and that declared names are unique.
 */
export function referenceIssues(scenario: {
  credentials: Array<{ id: string; url: string }>;
  users: Array<{ username: string }>;
  receivers: Array<{ name: string }>;
  steps: unknown[];
}): Issue[] {
  const issues: Issue[] = [];
  const unique = (list: string[], field: string, what: string) => {
    const seen = new Set<string>();
    list.forEach((v, i) => {
      if (seen.has(v)) issues.push({ path: [field, i], message: `${what} "${v}" is declared twice` });
      seen.add(v);
    });
  };
  unique(
    scenario.receivers.map((r) => r.name),
    'receivers',
    'receiver',
  );
  unique(
    scenario.credentials.map((c) => c.id),
    'credentials',
    'credential',
  );
  unique(
    scenario.users.map((u) => u.username),
    'users',
    'user',
  );

  const receivers = new Set(scenario.receivers.map((r) => r.name));
  const credentials = new Set(scenario.credentials.map((c) => c.id));
  const list = (set: Set<string>) => (set.size ? [...set].join(', ') : '(none declared)');
  scenario.credentials.forEach((c, i) => {
    if (!c.url.startsWith(RECEIVER_PREFIX)) return;
    const name = c.url.slice(RECEIVER_PREFIX.length);
    if (!receivers.has(name))
      issues.push({
        path: ['credentials', i, 'url'],
        message: `no receiver named "${name}"; declared receivers: ${list(receivers)}`,
      });
  });

  const bookings = new Set<string>();
  const logins = new Set<string>();
  scenario.steps.forEach((step, i) => {
    const [kind, value] = Object.entries(step as Obj).find(([k]) => k !== 'name') ?? [];
    if (!kind || value === null || typeof value !== 'object') return;
    const v = value as Obj;
    const at = (...rest: PropertyKey[]) => ['steps', i, kind, ...rest];
    const ref = (r: unknown, ...path: PropertyKey[]) => {
      if (typeof r === 'string' && !bookings.has(r))
        issues.push({
          path: at(...path),
          message: `no earlier step named a reservation "${r}" with as:; named so far: ${list(bookings)}`,
        });
    };
    const cred = (id: unknown, ...path: PropertyKey[]) => {
      if (typeof id === 'string' && !credentials.has(id))
        issues.push({ path: at(...path), message: `no credential "${id}"; declared: ${list(credentials)}` });
    };
    const recv = (name: unknown, ...path: PropertyKey[]) => {
      if (typeof name === 'string' && !receivers.has(name))
        issues.push({ path: at(...path), message: `no receiver "${name}"; declared: ${list(receivers)}` });
    };
    ref(v.booking, 'booking');
    if (kind === 'outage') cred(v.credential, 'credential');
    if (kind === 'expect' || kind === 'waitFor') {
      const n = v.notifications as Obj | undefined;
      if (n) {
        ref(n.booking, 'notifications', 'booking');
        cred(n.credential, 'notifications', 'credential');
        if (Array.isArray(n.credentials))
          n.credentials.forEach((c, j) => {
            cred(c, 'notifications', 'credentials', j);
          });
      }
      const r = v.reservation as Obj | undefined;
      if (r) for (const f of ['booking', 'exchangedTo', 'exchangedFrom']) ref(r[f], 'reservation', f);
      const rc = v.receiver as Obj | undefined;
      if (rc) recv(rc.name, 'receiver', 'name');
      const l = v.login as Obj | undefined;
      if (l && typeof l.name === 'string' && !logins.has(l.name))
        issues.push({
          path: at('login', 'name'),
          message: `no earlier login step named "${l.name}" with as:; named so far: ${list(logins)}`,
        });
    }
    if (typeof v.as === 'string') {
      const names = kind === 'login' ? logins : bookings;
      if (names.has(v.as)) issues.push({ path: at('as'), message: `the name "${v.as}" is already used` });
      names.add(v.as);
    }
  });
  return issues;
}

/** Adds reference issues to a zod refinement context. */
export function addReferenceIssues(value: Parameters<typeof referenceIssues>[0], ctx: z.RefinementCtx): void {
  for (const issue of referenceIssues(value))
    ctx.addIssue({ code: 'custom', path: issue.path as (string | number)[], message: issue.message });
}

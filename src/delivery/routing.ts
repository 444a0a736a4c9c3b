import type { NotificationBody } from '../contract/index.js';
import type { Credential } from './credential-schema.js';

/**
 * Whether a body goes to a credential (spec "What the service does" 5, product rule "Core concepts"): no
 * filter matches all; a PCC filter matches PCCBook or PCCIssue; an IdWeb filter matches
 * Product.IdWeb; when both filters are set both must match.
 */
export function matches(credential: Credential, body: NotificationBody): boolean {
  const { pcc, idWeb } = credential.filters;
  if (pcc && !pcc.includes(body.Reservation.PCCBook) && !pcc.includes(body.Reservation.PCCIssue))
    return false;
  if (idWeb) {
    const id = body.Product.IdWeb;
    if (id === undefined || !idWeb.includes(id)) return false;
  }
  return true;
}

/** Every credential a body is routed to, in the order they were added. */
export function route(credentials: Iterable<Credential>, body: NotificationBody): Credential[] {
  return [...credentials].filter((c) => matches(c, body));
}

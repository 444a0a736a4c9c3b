import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import type { Emulator } from '../emulator.js';
import { EmulatorError } from '../errors.js';

/** Methods that change something: they need a JSON body (or none) and, with a token, the token. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json';
/** `POST /__admin/trust` also takes PEM text, under a type no web page can send without a CORS check. */
const PEM_TYPES = ['application/x-pem-file', 'application/pem-certificate-chain'];

/**
 * The admin API's door (docs/admin-api.md "Security", decisions 0040 and 0041), one middleware on
 * the `/__admin` prefix, before any route: a request is refused when its `Host` is a name a
 * DNS-rebinding page could use, when it comes from a web page of another origin, when a write's
 * body is not JSON (the types a page may send cross-site without a CORS preflight are exactly the
 * non-JSON ones), and, with `adminToken` set, when it lacks the token. Health answers every probe;
 * the dashboard's page and files carry no state and load without the token (the page asks for it).
 * GetAccessToken and deliveries never pass here.
 */
export function adminGuard(emulator: Emulator): MiddlewareHandler {
  const { settings, names } = emulator;
  const allowed = new Set(settings.allowedHosts);
  const anyHost = allowed.has('*');
  const ownHost = settings.host.toLowerCase();
  const tokenDigest = settings.adminToken === undefined ? undefined : digest(settings.adminToken);

  const refuse = (c: Context, status: 401 | 403 | 415, code: string, message: string, details = {}) => {
    const err = new EmulatorError(code, message, status, 'user_input', details);
    if (status === 401) c.header('WWW-Authenticate', 'Bearer realm="reportbo-emulator admin API"');
    return c.json(err.toProblem(), status);
  };

  return async (c, next) => {
    const path = new URL(c.req.url).pathname.slice('/__admin'.length);
    // Probes (docker HEALTHCHECK, Kubernetes, compose's service_healthy) reach health by any name.
    if (path === '/health') return next();

    const host = c.req.header('host');
    const hostname = host === undefined ? undefined : hostnameOf(host);
    if (hostname !== undefined && !anyHost && !hostAllowed(hostname, ownHost, allowed)) {
      return refuse(
        c,
        403,
        'admin_host_not_allowed',
        `The admin API does not answer to the host name "${hostname}" (Host header): a web page could reach it under such a name through DNS rebinding. ` +
          `Call it as localhost, an IP address or a name without a dot, or allow the name: ${names.howToSet('allowedHosts', hostname)}.`,
        { host: hostname, setting: 'allowedHosts' },
      );
    }

    const origin = c.req.header('origin');
    if (origin !== undefined && !originAllowed(origin, host, allowed)) {
      const listed = originHostname(origin);
      return refuse(
        c,
        403,
        'admin_origin_refused',
        `Admin requests from a web page of another origin (Origin: ${origin}) are refused: any page open in a browser could otherwise drive the emulator. ` +
          'Use the dashboard at /__admin/ui, or call the admin API from a script or curl (they send no Origin)' +
          (listed
            ? `; if this emulator's own dashboard is served under ${listed} (a proxy), ${names.howToSet('allowedHosts', listed)}.`
            : '.'),
        { origin, setting: 'allowedHosts' },
      );
    }

    const isUi = path === '' || path === '/' || path === '/ui' || path.startsWith('/ui/');
    // A browser says where a request comes from (Fetch Metadata): a page of another site, even a
    // `no-cors` GET whose answer it cannot read, makes the emulator do the work. A link followed to
    // the dashboard (a top-level navigation) carries no state and stays allowed.
    const navigation = c.req.header('sec-fetch-mode') === 'navigate' && c.req.method === 'GET' && isUi;
    if (c.req.header('sec-fetch-site')?.toLowerCase() === 'cross-site' && !navigation) {
      return refuse(
        c,
        403,
        'admin_cross_site_refused',
        'Admin requests sent by a web page of another site (Sec-Fetch-Site: cross-site) are refused: any page open in a browser could otherwise drive the emulator. ' +
          'Use the dashboard at /__admin/ui, or call the admin API from a script or curl.',
      );
    }

    if (tokenDigest !== undefined && !isUi) {
      const given =
        bearer(c.req.header('authorization')) ?? (path === '/stream' ? c.req.query('token') : undefined);
      const where = names.name('adminToken');
      if (given === undefined) {
        return refuse(
          c,
          401,
          'admin_token_missing',
          `The admin API requires the token set with ${where}: send "Authorization: Bearer <token>"` +
            (path === '/stream' ? ' (or ?token=<token> on /__admin/stream, for EventSource).' : '.'),
          { setting: 'adminToken' },
        );
      }
      if (!timingSafeEqual(digest(given), tokenDigest)) {
        return refuse(
          c,
          401,
          'admin_token_wrong',
          `The admin token sent does not match the one set with ${where}; send that token as "Authorization: Bearer <token>".`,
          { setting: 'adminToken' },
        );
      }
    }

    if (WRITE_METHODS.has(c.req.method)) {
      const type = c.req.header('content-type');
      const mime = type?.split(';')[0]?.trim().toLowerCase();
      const length = c.req.header('content-length');
      const hasBody =
        (length !== undefined && length.trim() !== '0') || c.req.header('transfer-encoding') !== undefined;
      const accepted = path === '/trust' ? [JSON_TYPE, ...PEM_TYPES] : [JSON_TYPE];
      // A write without a body may carry no type (curl -X DELETE); one with a body must say JSON.
      if ((hasBody || mime !== undefined) && !accepted.includes(mime ?? '')) {
        return refuse(
          c,
          415,
          'admin_content_type_refused',
          `${c.req.method} /__admin${path} needs Content-Type: ${accepted.join(' or ')}${hasBody ? '' : ' or no body and no Content-Type'} (got ${type ?? 'none'}): ` +
            'a web page may send other types to any site without asking, JSON only after a CORS check this API never grants. ' +
            "Send the body as JSON with -H 'Content-Type: application/json'.",
          { accepted, got: type ?? null },
        );
      }
    }
    return next();
  };
}

/** The host name of a Host header (`name:port`, `[v6]:port`), lower-cased; undefined when unparsable. */
function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return host.toLowerCase();
  }
}

/**
 * Names no DNS-rebinding page can use: loopback names, IP literals (a page at an IP address is the
 * emulator's own origin), single-label names (docker service and container names; a page cannot
 * make a browser resolve one it controls), the configured listen host, and the listed names.
 */
function hostAllowed(hostname: string, ownHost: string, allowed: ReadonlySet<string>): boolean {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return (
    bare === 'localhost' ||
    bare.endsWith('.localhost') ||
    isIP(bare) !== 0 ||
    !bare.includes('.') ||
    bare === ownHost ||
    allowed.has(bare)
  );
}

/** Same origin as the request's own Host, or a listed name (the emulator's dashboard behind a proxy). */
function originAllowed(origin: string, host: string | undefined, allowed: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (sandboxed frames, file: pages) and anything unparsable
  }
  if (host !== undefined && url.host.toLowerCase() === host.toLowerCase()) return true;
  return allowed.has(url.hostname.toLowerCase());
}

function originHostname(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1]?.trim();
}

/** Equal-length digests, so the comparison takes the same time whatever the token's length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

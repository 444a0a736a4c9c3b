/**
 * What an admin request body may be (decision 0121): at most MAX_ADMIN_BODY_BYTES,
 * counted while it is read (a larger body is never buffered: 413), valid UTF-8 (a lossy decode once
 * stored U+FFFD in place of the bytes sent: 400), and JSON nested at most MAX_JSON_DEPTH deep (10,000
 * levels of `overrides` overflowed the stack of the recursive merge: 400 naming the path).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { EmulatorError, formatPath, InputError } from '../errors.js';
import { readRequestBody, TOO_LARGE } from '../incoming-body.js';

/** The largest admin request body read: 10 MiB. */
export const MAX_ADMIN_BODY_BYTES = 10 * 1024 * 1024;
/** How deep objects and arrays may nest in an admin JSON body (a notification body nests about 6). */
export const MAX_JSON_DEPTH = 64;

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A body past MAX_ADMIN_BODY_BYTES. HTTP 413. */
class BodyTooLargeError extends EmulatorError {
  constructor() {
    super(
      'body_too_large',
      `The request body is larger than ${MAX_ADMIN_BODY_BYTES} bytes (10 MiB), the most an admin request may send.`,
      413,
      'user_input',
      { accepted: [`at most ${MAX_ADMIN_BODY_BYTES} bytes`] },
    );
  }
}

const CHECKED_BODY = 'reportbo.admin.body';

/**
 * Reads an admin request's body within the bounds above; the routes read the checked text with
 * `checkedBody` (mount.ts). A GET, HEAD or OPTIONS passes untouched; a request without a body
 * reads as empty.
 */
export function adminBodyLimits(): MiddlewareHandler {
  return async (c, next) => {
    if (!WITH_BODY.has(c.req.method)) return next();
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > MAX_ADMIN_BODY_BYTES) throw new BodyTooLargeError();
    // Counted while read, from the socket or the fetch `Request` (src/incoming-body.ts).
    const bytes = await readRequestBody(c, MAX_ADMIN_BODY_BYTES);
    if (bytes === TOO_LARGE) throw new BodyTooLargeError();
    const text = decodeUtf8(bytes);
    const deep = tooDeep(text, MAX_JSON_DEPTH);
    if (deep)
      throw new InputError(
        'too_deep',
        `The request body nests deeper than ${MAX_JSON_DEPTH} levels at ${formatPath(deep)}.`,
        { path: formatPath(deep), accepted: [`at most ${MAX_JSON_DEPTH} levels of objects and arrays`] },
      );
    c.set(CHECKED_BODY, text);
    return next();
  };
}

/** The body text `adminBodyLimits` read and checked, or undefined when it read none. */
export function checkedBody(c: Context): string | undefined {
  return c.get(CHECKED_BODY) as string | undefined;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new InputError(
      'invalid_utf8',
      'The request body is not valid UTF-8; send JSON encoded as UTF-8 (Content-Type: application/json).',
      { accepted: ['UTF-8'] },
    );
  }
}

/**
 * The path of the first object or array nested deeper than `max` in JSON `text`, or undefined. A
 * scan, not a parse (the body is parsed once, by its route); strings are skipped with their escapes.
 */
function tooDeep(text: string, max: number): Array<string | number> | undefined {
  const path: Array<string | number> = [];
  const inArray: boolean[] = [];
  let keyStart = -1;
  let keyEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      keyStart = i + 1;
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      keyEnd = i;
    } else if (ch === 0x7b || ch === 0x5b) {
      if (inArray.length >= max) return path;
      inArray.push(ch === 0x5b);
      path.push(ch === 0x5b ? 0 : '');
    } else if (ch === 0x7d || ch === 0x5d) {
      inArray.pop();
      path.pop();
    } else if (ch === 0x3a && inArray.length > 0 && !inArray[inArray.length - 1]) {
      path[path.length - 1] = text.slice(keyStart, keyEnd);
    } else if (ch === 0x2c && inArray[inArray.length - 1]) {
      path[path.length - 1] = (path[path.length - 1] as number) + 1;
    }
  }
  return undefined;
}

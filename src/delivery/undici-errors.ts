/**
 * undici reports some failures with its own error classes where node:http used Node's errno codes.
 * They are translated back, so `classifyError` (and every attempt message) stays as it was with the
 * node:http sender: a closed or cut-short connection is `ECONNRESET`, a parser error `Parse Error: …`.
 */
type NodeError = NodeJS.ErrnoException & { reason?: string; hostname?: string };

/** The Node-style error equivalent to an error undici reported for one attempt. */
export function asNodeError(err: Error): NodeError {
  const e = err as NodeError;
  switch (e.code) {
    // The receiver closed the connection (FIN) before the response was complete; node:http said
    // "socket hang up" before the headers and "aborted" after them, both ECONNRESET.
    case 'UND_ERR_SOCKET':
      if (e.message === 'bad response')
        return withCode('Parse Error: unexpected response', 'HPE_INVALID_CONSTANT');
      return withCode(e.message, 'ECONNRESET');
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return withCode('aborted', 'ECONNRESET');
    case 'UND_ERR_HEADERS_OVERFLOW':
      return withCode('Parse Error: Header overflow', 'HPE_HEADER_OVERFLOW');
    case 'UND_ERR_CONNECT_TIMEOUT':
      return withCode(e.message, 'ETIMEDOUT');
  }
  if (e.name === 'HTTPParserError') {
    // "Response does not match the HTTP/1.1 protocol (Expected HTTP/…)" → "Parse Error: Expected HTTP/…".
    // undici 7 leaves `code` unset (it looks the llhttp error number up in a name → number table), so
    // the one code node:http gave for a non-HTTP answer is restored, and a generic one otherwise.
    const reason = /\((.*)\)$/.exec(e.message)?.[1] ?? e.message;
    const code =
      e.code ?? (reason.startsWith('Expected HTTP/') ? 'HPE_INVALID_CONSTANT' : 'HPE_INVALID_RESPONSE');
    return withCode(`Parse Error: ${reason}`, code);
  }
  return e;
}

function withCode(message: string, code: string): NodeError {
  return Object.assign(new Error(message), { code });
}

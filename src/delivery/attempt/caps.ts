/** Response bodies are read up to this many bytes and the rest discarded (product rule "Delivery rules"). */
export const RESPONSE_BODY_CAP_BYTES = 4096;
/** Response headers are kept up to this many bytes (names and values), like the body's cap. */
export const RESPONSE_HEADERS_CAP_BYTES = 4096;

/** The response headers as one record (repeated ones joined by ", "), within RESPONSE_HEADERS_CAP_BYTES. */
export function keptHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  let bytes = 0;
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    bytes += name.length + value.length + 4;
    if (bytes > RESPONSE_HEADERS_CAP_BYTES) break;
    kept[name] = value;
  }
  return kept;
}

/** The first RESPONSE_BODY_CAP_BYTES of a response body; later bytes are dropped. */
export class KeptBody {
  #parts: Buffer[] = [];
  bytes = 0;

  push(chunk: Buffer): void {
    if (this.bytes >= RESPONSE_BODY_CAP_BYTES) return;
    const part = chunk.subarray(0, RESPONSE_BODY_CAP_BYTES - this.bytes);
    this.#parts.push(part);
    this.bytes += part.length;
  }

  /** The kept bytes as UTF-8 text. */
  text(): string {
    return this.bytes === 0 ? '' : Buffer.concat(this.#parts).toString('utf8');
  }
}

// A small GetAccessToken SDK on Node's own fetch (Node 20 or later, no dependency), and the harness
// `reportbo-emulator verify-client` runs (docs/verify-client.md). JSON and XML, API 1.6 and 1.7.
//   reportbo-emulator verify-client --exec "node node-fetch.mjs" --version 1.7 --variant json
import { pathToFileURL } from 'node:url';

/** An error the provider reported, or a call that could not be completed. */
export class TokenError extends Error {
  /** @param {string} message @param {{ code?: string, transient?: boolean }} [more] */
  constructor(message, more = {}) {
    super(message);
    this.code = more.code;
    /** A 5xx answer or a dropped connection: worth a retry after a pause. */
    this.transient = more.transient ?? false;
  }
}

/** API 1.6 answers no ExpiresAt; its tokens are taken to live as 1.7's do (spec "Limits": 8 hours). */
const LIFETIME_16_MS = 8 * 60 * 60 * 1000;

export class TokenClient {
  /**
   * @param {{ endpoint: string, version: '1.6' | '1.7', variant: 'json' | 'xml', username: string,
   *   password: string, timeoutMs?: number, attempts?: number, firstPauseMs?: number }} options
   */
  constructor(options) {
    this.options = options;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attempts = options.attempts ?? 5;
    this.firstPauseMs = options.firstPauseMs ?? 250;
    /** @type {string | undefined} */
    this.token = undefined;
    this.expiresAtMs = 0;
    this.refreshAtMs = 0;
  }

  /** A valid token: the cached one until shortly before its ExpiresAt, else a new one. */
  async getToken() {
    if (this.token !== undefined && this.fresh(Date.now())) return this.token;
    const { token, expiresAtMs } = await this.callWithRetries();
    const now = Date.now();
    this.token = token;
    this.expiresAtMs = expiresAtMs;
    // Refresh a fifth of the lifetime early, at most a minute: works for 8 hours and for seconds.
    this.refreshAtMs = expiresAtMs - Math.min(60_000, (expiresAtMs - now) / 5);
    return token;
  }

  /** @param {number} now */
  fresh(now) {
    return now < this.refreshAtMs;
  }

  async callWithRetries() {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.call();
      } catch (err) {
        if (!(err instanceof TokenError) || !this.retryable(err) || attempt >= this.attempts) throw err;
        await new Promise((resolve) => setTimeout(resolve, this.pauseMs(attempt)));
      }
    }
  }

  /** Only transient failures are retried; a refused password or version never gets right by asking again. */
  /** @param {TokenError} err */
  retryable(err) {
    return err.transient;
  }

  /** 250 ms, 500 ms, 1 s, …: longer each time, so a struggling provider is not stormed. */
  /** @param {number} attempt */
  pauseMs(attempt) {
    return this.firstPauseMs * 2 ** (attempt - 1);
  }

  contentType() {
    return `${this.options.variant === 'json' ? 'application/json' : 'application/xml'}; charset=utf-8`;
  }

  signal() {
    return AbortSignal.timeout(this.timeoutMs);
  }

  async call() {
    const { endpoint, version, variant, username, password } = this.options;
    const json = variant === 'json';
    const body = json
      ? JSON.stringify(
          version === '1.6' ? { username, password } : { Username: username, Password: password },
        )
      : `<GetAccessTokenRequest><Username>${xmlText(username)}</Username><Password>${xmlText(password)}</Password></GetAccessTokenRequest>`;
    let res;
    let text;
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': this.contentType() },
        body,
        signal: this.signal(),
      });
      text = await res.text();
    } catch (err) {
      const e = /** @type {Error & { cause?: Error }} */ (err);
      if (e.name === 'TimeoutError')
        throw new TokenError(`GetAccessToken: no answer within ${this.timeoutMs} ms`);
      throw new TokenError(`GetAccessToken: connection failed (${e.cause?.message ?? e.message})`, {
        transient: true,
      });
    }
    if (res.status >= 500) throw new TokenError(`GetAccessToken: HTTP ${res.status}`, { transient: true });
    if (res.status !== 200) throw new TokenError(`GetAccessToken: HTTP ${res.status}: ${text.slice(0, 200)}`);
    return version === '1.6'
      ? this.read16(json ? jsonValue(text) : xmlElement(text, 'string'))
      : this.read17(text, json);
  }

  /** API 1.6: the answer is the token, or an error string that begins with its code ("1200 - …"). */
  /** @param {unknown} answer */
  read16(answer) {
    if (typeof answer !== 'string' || answer === '')
      throw new TokenError(`GetAccessToken: unexpected answer ${JSON.stringify(answer)}`);
    const code = /^(\d+)/.exec(answer)?.[1];
    if (code !== undefined) throw new TokenError(`GetAccessToken refused: ${answer}`, { code });
    return { token: answer, expiresAtMs: Date.now() + LIFETIME_16_MS };
  }

  /** API 1.7: a GetAccessTokenResponse; it failed when TransactionCode is neither null nor "0". */
  /** @param {string} text @param {boolean} json */
  read17(text, json) {
    const value = json ? /** @type {Record<string, unknown>} */ (jsonValue(text) ?? {}) : xmlResponse(text);
    const code = value.TransactionCode;
    if (code !== null && code !== undefined && code !== '0')
      throw new TokenError(`GetAccessToken refused: ${code} - ${value.TransactionMessage}`, {
        code: String(code),
      });
    const expiresAtMs = Date.parse(String(value.ExpiresAt));
    if (typeof value.Token !== 'string' || value.Token === '' || Number.isNaN(expiresAtMs))
      throw new TokenError(`GetAccessToken: the answer holds no Token and ExpiresAt: ${text.slice(0, 200)}`);
    return { token: value.Token, expiresAtMs };
  }
}

/** @param {string} text */
function jsonValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    throw new TokenError(`GetAccessToken: unreadable JSON answer: ${text.slice(0, 200)}`);
  }
}

/** @param {string} text @param {string} name */
function xmlElement(text, name) {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(text);
  if (!m) throw new TokenError(`GetAccessToken: unreadable XML answer: ${text.slice(0, 200)}`);
  return xmlUnescape(m[1]);
}

/** @param {string} text @returns {Record<string, unknown>} */
function xmlResponse(text) {
  if (!/<\/GetAccessTokenResponse>\s*$/.test(text))
    throw new TokenError(`GetAccessToken: unreadable XML answer: ${text.slice(0, 200)}`);
  /** @type {Record<string, unknown>} */
  const value = {};
  for (const name of ['Token', 'ExpiresAt', 'TransactionCode', 'TransactionMessage']) {
    const m = new RegExp(`<${name}(?:\\s[^>]*)?(?:/>|>([^<]*)</${name}>)`).exec(text);
    value[name] = m?.[1] === undefined ? null : xmlUnescape(m[1]);
  }
  return value;
}

/** @param {string} s */
function xmlText(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** @param {string} s */
function xmlUnescape(s) {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The harness: asks the SDK for VERIFY_CLIENT_TOKENS tokens as an application would, one line each. */
export async function harness(client = new TokenClient(optionsFromEnv())) {
  const tokens = Number(process.env.VERIFY_CLIENT_TOKENS ?? 1);
  const intervalMs = Number(process.env.VERIFY_CLIENT_INTERVAL_MS ?? 0);
  try {
    for (let i = 0; i < tokens; i++) {
      if (i > 0 && intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
      console.log(await client.getToken());
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}

export function optionsFromEnv() {
  const env = process.env;
  return {
    endpoint: String(env.VERIFY_CLIENT_ENDPOINT),
    version: /** @type {'1.6' | '1.7'} */ (env.VERIFY_CLIENT_VERSION),
    variant: /** @type {'json' | 'xml'} */ (env.VERIFY_CLIENT_VARIANT),
    username: String(env.VERIFY_CLIENT_USERNAME),
    password: String(env.VERIFY_CLIENT_PASSWORD),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await harness();

/**
 * One case's stage: a fresh emulator in this process on port 0 (real clock, its own user, the
 * faults the case asks for), the harness's environment pointing at it, and afterwards what the
 * emulator saw, read from its request journal and token store.
 */
import { randomBytes } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { exchangeOf } from '../api/index.js';
import { createApp } from '../app.js';
import type { FaultInput } from '../auth/faults.js';
import { TOKEN_LIFETIME_MS } from '../auth/tokens.js';
import type { ApiVersion, Variant } from '../auth/types.js';
import { RealClock } from '../clock/index.js';
import { createEmulator, type Emulator } from '../emulator.js';
import type { ClientCall } from './types.js';

/** The user every stage creates; the password is new for each run, so no harness can hard-code it. */
export const SDK_USERNAME = 'sdk-under-test';

/** The environment the harness contract names (docs/verify-client.md "The harness contract"). */
export const ENV = {
  endpoint: 'VERIFY_CLIENT_ENDPOINT',
  wsdl: 'VERIFY_CLIENT_WSDL',
  baseUrl: 'VERIFY_CLIENT_BASE_URL',
  version: 'VERIFY_CLIENT_VERSION',
  variant: 'VERIFY_CLIENT_VARIANT',
  username: 'VERIFY_CLIENT_USERNAME',
  password: 'VERIFY_CLIENT_PASSWORD',
  tokens: 'VERIFY_CLIENT_TOKENS',
  intervalMs: 'VERIFY_CLIENT_INTERVAL_MS',
} as const;

export interface StageSetup {
  version: ApiVersion;
  variant: Variant;
  /** API versions the user is authorized for (default both). */
  userVersions?: ApiVersion[];
  /** Tokens the emulator issues expire this long after they are issued (default 8 hours, the spec's). */
  tokenLifetimeMs?: number;
  /**
   * Fault rules in the order they apply (`POST /__admin/faults` bodies); one with `forMs` is removed
   * that long after the first call arrives (a provider that fails for a while, then recovers).
   */
  faults?: Array<FaultInput & { forMs?: number }>;
  /**
   * A provider that never answers: every POST is held until the stage closes. (A `delay` fault would
   * do it too, but its timer cannot be ended early and would keep the process alive after the run.)
   */
  hang?: boolean;
}

/** What the harness is asked to do in a case. */
export interface Ask {
  tokens: number;
  intervalMs: number;
  /** Give the harness a password the emulator refuses. */
  wrongPassword?: boolean;
}

const PATHS: Record<ApiVersion, Record<'json' | 'xml' | 'soap', string>> = {
  '1.6': {
    json: '/FlightService.json/GetAccessToken',
    xml: '/FlightService.xml/GetAccessToken',
    soap: '/FlightService.asmx',
  },
  '1.7': {
    json: '/AuthService.json/GetAccessToken',
    xml: '/AuthService.xml/GetAccessToken',
    soap: '/AuthService.asmx',
  },
};

/** The canonical path of a version and variant below its base path. */
export function endpointPath(version: ApiVersion, variant: Variant): string {
  return PATHS[version][variant.startsWith('soap') ? 'soap' : (variant as 'json' | 'xml')];
}

/** A listening stage server: the emulator's own app, in front of it the hanging provider when asked for. */
interface Listening {
  url: string;
  emulator: Emulator;
  /** Calls held unanswered so far (a hanging stage). */
  held(): number;
  close(): Promise<void>;
}

export class Stage {
  private constructor(
    private readonly server: Listening,
    readonly setup: StageSetup,
    readonly password: string,
    /** Wall time the case started (ms since the epoch); call times count from it. */
    readonly startedAtMs: number,
  ) {}

  /** Starts the emulator of one case. */
  static async open(setup: StageSetup, password: string): Promise<Stage> {
    // A short lifetime without touching the token store: the stage's clock runs (8 h − lifetime)
    // behind real time, so a token issued now carries ExpiresAt = now + lifetime, which is all a
    // client sees of a token's lifetime (decision 0186).
    const emulator = createEmulator(
      { port: 0, host: '127.0.0.1', clock: 'real', logLevel: 'silent' },
      { clock: new RealClock(undefined, () => Date.now() - behindMs(setup)) },
      {
        users: [
          {
            username: SDK_USERNAME,
            password,
            idWeb: 4242,
            webDescription: 'SDK under test',
            versions: setup.userVersions ?? ['1.6', '1.7'],
          },
        ],
      },
    );
    const timed: Array<{ id: string; forMs: number }> = [];
    try {
      await emulator.ready;
      for (const { forMs, ...f } of setup.faults ?? []) {
        const { id } = emulator.auth.faults.add(f);
        if (forMs !== undefined) timed.push({ id, forMs });
      }
    } catch (err) {
      await emulator.stop();
      throw err;
    }
    return new Stage(await listen(emulator, setup.hang === true, timed), setup, password, Date.now());
  }

  /** The base URL of the stage's API version, e.g. `http://127.0.0.1:41234/api/1.7`. */
  get baseUrl(): string {
    const s = this.server.emulator.settings;
    const base = this.setup.version === '1.6' ? s.basePath16 : s.basePath17;
    return `${this.server.url}${base.replace(/\/$/, '')}`;
  }

  get endpoint(): string {
    return `${this.baseUrl}${endpointPath(this.setup.version, this.setup.variant)}`;
  }

  /** The harness's environment for `ask` (docs/verify-client.md "The harness contract"). */
  env(ask: Ask): Record<string, string> {
    const soap = this.setup.variant.startsWith('soap');
    return {
      [ENV.endpoint]: this.endpoint,
      [ENV.wsdl]: soap ? `${this.endpoint}?WSDL` : '',
      [ENV.baseUrl]: this.baseUrl,
      [ENV.version]: this.setup.version,
      [ENV.variant]: this.setup.variant,
      [ENV.username]: SDK_USERNAME,
      [ENV.password]: ask.wrongPassword ? `${this.password}-wrong` : this.password,
      [ENV.tokens]: String(ask.tokens),
      [ENV.intervalMs]: String(ask.intervalMs),
    };
  }

  /** The GetAccessToken calls the emulator answered, oldest first (a call still hanging is not one yet). */
  calls(): ClientCall[] {
    const behind = behindMs(this.setup);
    return this.server.emulator.auth.journal.list().map((e) => {
      const request = exchangeOf(e)?.request;
      return {
        atMs: Date.parse(e.at) + behind - this.startedAtMs,
        ...(request ? { method: request.method } : {}),
        target: request?.target ?? e.path,
        outcome: e.outcome,
        transactionCode: e.transactionCode,
        httpStatus: e.httpStatus,
        ...(e.fault ? { fault: e.fault.kind } : {}),
      };
    });
  }

  /** The journal entries themselves (with their kept request and answer, src/api/exchange.ts). */
  entries() {
    return this.server.emulator.auth.journal.list();
  }

  /** Calls the hanging stage holds unanswered. */
  heldCalls(): number {
    return this.server.held();
  }

  /** Each token issued in this stage, with its ExpiresAt as wall time (ms since the epoch). */
  issued(): Map<string, number> {
    return new Map(this.server.emulator.auth.tokens.list().map((t) => [t.token, Date.parse(t.expiresAt)]));
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** How far the stage's clock runs behind real time: 8 hours less the case's token lifetime. */
function behindMs(setup: StageSetup): number {
  return TOKEN_LIFETIME_MS - (setup.tokenLifetimeMs ?? TOKEN_LIFETIME_MS);
}

/**
 * Serves the emulator's app on a loopback port, as `serve` does; a hanging stage holds every POST
 * (the GetAccessToken calls; a SOAP client still reads its WSDL) until it closes.
 */
async function listen(
  emulator: Emulator,
  hang: boolean,
  timed: ReadonlyArray<{ id: string; forMs: number }>,
): Promise<Listening> {
  const app = createApp(emulator);
  const releases = new Set<() => void>();
  const timers: NodeJS.Timeout[] = [];
  let held = 0;
  let called = false;
  const fetch = (req: Request, env: unknown): Response | Promise<Response> => {
    if (req.method === 'POST' && !called) {
      called = true;
      for (const { id, forMs } of timed)
        timers.push(setTimeout(() => emulator.auth.faults.remove(id), forMs));
    }
    if (!hang || req.method !== 'POST') return app.fetch(req, env);
    held++;
    return new Promise((resolve) => releases.add(() => resolve(new Response(null, { status: 503 }))));
  };
  const server = createAdaptorServer({ fetch, hostname: '127.0.0.1' }) as HttpServer;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  }).catch(async (err) => {
    await emulator.stop();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  emulator.start(port);
  return {
    url: `http://127.0.0.1:${port}`,
    emulator,
    held: () => held,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const release of releases) release();
      await emulator.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A password for one run: random, so a harness cannot pass by knowing it. */
export function newPassword(): string {
  return `pw-${randomBytes(9).toString('base64url')}`;
}

/**
 * Testcontainers module for reportbo-emulator (decision 0061): the emulator image as a typed
 * GenericContainer that waits on `/__admin/health`, is configured by environment variables alone
 * (REPORTBO_USERS, REPORTBO_CREDENTIALS, …), and, once started, hands out its base URL, the six
 * GetAccessToken URLs, an admin client, receiver certificates made inside it and a way to trust a CA.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { AdminClient, type AdminClientOptions, type AdminTypes } from 'reportbo-emulator';
import {
  AbstractStartedContainer,
  GenericContainer,
  getContainerRuntimeClient,
  ImageName,
  Network,
  type StartedNetwork,
  type StartedTestContainer,
  TestContainers,
  Wait,
} from 'testcontainers';

/** The port the emulator listens on inside its container (the image's default). */
export const EMULATOR_PORT = 8080;
/** The host name a container reaches a host port by, once `TestContainers.exposeHostPorts` exposed it. */
const EXPOSED_HOST = 'host.testcontainers.internal';

export type ClockMode = 'real' | 'compressed' | 'manual';
export type User = AdminTypes.User;
export type CredentialInput = AdminTypes.CredentialInput;

/**
 * How the container reaches a receiver listening on the test's host: `exposeHostPorts` (the
 * Testcontainers port forwarder, an sshd container it pulls), `gateway` (a network of its own and
 * that network's gateway address, which is the host; the receiver must listen on it or on 0.0.0.0),
 * or `auto`: `exposeHostPorts`, and the gateway when the forwarder cannot start.
 */
export type HostReceiverRoute = 'auto' | 'exposeHostPorts' | 'gateway';

/** The emulator image as a container. `image` names it, e.g. `ghcr.io/your-org/reportbo-emulator:0.1.0`. */
export class ReportboEmulatorContainer extends GenericContainer {
  readonly #settings: Record<string, string> = {};
  readonly #users: User[] = [];
  readonly #credentials: CredentialInput[] = [];
  #adminToken: string | undefined;
  #hostReceiver: { port: number; via: HostReceiverRoute } | undefined;

  constructor(image: string) {
    super(image);
    this.withExposedPorts(EMULATOR_PORT)
      .withWaitStrategy(Wait.forHttp('/__admin/health', EMULATOR_PORT).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** The emulator's clock: `manual` (time moves only when told), `compressed` (`hourMs` per hour) or `real`. */
  withClock(mode: ClockMode, options: { start?: string | Date; hourMs?: number } = {}): this {
    this.#settings.REPORTBO_CLOCK = mode;
    if (options.start !== undefined)
      this.#settings.REPORTBO_CLOCK_START =
        options.start instanceof Date ? options.start.toISOString() : options.start;
    if (options.hourMs !== undefined) this.#settings.REPORTBO_HOUR_MS = String(options.hourMs);
    return this;
  }

  /** The seed of every generated value: same seed, same notification bodies. */
  withSeed(seed: number): this {
    this.#settings.REPORTBO_SEED = String(seed);
    return this;
  }

  /** GetAccessToken users present from the start (REPORTBO_USERS). */
  withUsers(...users: User[]): this {
    this.#users.push(...users);
    return this;
  }

  /** Credentials present from the start (REPORTBO_CREDENTIALS); a bad one fails the start with its message. */
  withCredentials(...credentials: CredentialInput[]): this {
    this.#credentials.push(...credentials);
    return this;
  }

  /** A scenario file on the host, copied in and preloaded (`serve --scenario`: credentials, users, receivers). */
  withScenarioFile(path: string): this {
    const target = `/scenarios/${basename(path)}`;
    this.withCopyFilesToContainer([{ source: path, target, mode: 0o644 }]);
    this.#settings.REPORTBO_SCENARIO = target;
    return this;
  }

  /** Guards the admin API with a token (REPORTBO_ADMIN_TOKEN); the admin client of the started container sends it. */
  withAdminToken(token: string): this {
    this.#adminToken = token;
    this.#settings.REPORTBO_ADMIN_TOKEN = token;
    return this;
  }

  /** Lets the container deliver to a receiver listening on `port` of the test's host (see HostReceiverRoute). */
  withHostReceiver(port: number, options: { via?: HostReceiverRoute } = {}): this {
    this.#hostReceiver = { port, via: options.via ?? 'auto' };
    return this;
  }

  override async start(): Promise<StartedReportboEmulatorContainer> {
    let route: { host: string; port: number; network?: StartedNetwork } | undefined;
    if (this.#hostReceiver) route = await this.#routeToHost(this.#hostReceiver.port, this.#hostReceiver.via);
    if (this.#users.length > 0) this.#settings.REPORTBO_USERS = JSON.stringify(this.#users);
    if (this.#credentials.length > 0) this.#settings.REPORTBO_CREDENTIALS = JSON.stringify(this.#credentials);
    this.withEnvironment(this.#settings);
    let started: StartedTestContainer;
    try {
      started = await super.start();
    } catch (err) {
      await route?.network?.stop().catch(() => {});
      throw err;
    }
    const admin = adminClientFor(baseUrlOf(started), this.#adminToken);
    const { basePaths } = await admin.config();
    return new StartedReportboEmulatorContainer(started, admin, basePaths, route);
  }

  async #routeToHost(
    port: number,
    via: HostReceiverRoute,
  ): Promise<{ host: string; port: number; network?: StartedNetwork }> {
    const unavailable = via === 'auto' ? await forwarderUnavailable() : undefined;
    if (via === 'exposeHostPorts' || (via === 'auto' && unavailable === undefined)) {
      await TestContainers.exposeHostPorts(port);
      return { host: EXPOSED_HOST, port };
    }
    if (unavailable !== undefined)
      console.warn(
        `reportbo-emulator-testcontainers: the exposeHostPorts forwarder cannot start (${unavailable}); reaching the host receiver through a network's gateway instead`,
      );
    const network = await new Network().start();
    const client = await getContainerRuntimeClient();
    const info = (await client.network.getById(network.getId()).inspect()) as {
      IPAM?: { Config?: Array<{ Gateway?: string }> };
    };
    const gateway = info.IPAM?.Config?.find((c) => c.Gateway)?.Gateway;
    if (!gateway) {
      await network.stop();
      throw new Error(
        `Network ${network.getName()} has no gateway address, so the container cannot reach the host; use withHostReceiver(${port}, { via: 'exposeHostPorts' }).`,
      );
    }
    this.withNetwork(network);
    return { host: gateway, port, network };
  }
}

/** A started emulator container. */
export class StartedReportboEmulatorContainer extends AbstractStartedContainer {
  /** The admin API (`/__admin`), with the admin token when one was set. */
  readonly admin: AdminClient;
  readonly #basePaths: { '1.6': string; '1.7': string };
  readonly #route: { host: string; port: number; network?: StartedNetwork } | undefined;

  constructor(
    started: StartedTestContainer,
    admin: AdminClient,
    basePaths: { '1.6': string; '1.7': string },
    route?: { host: string; port: number; network?: StartedNetwork },
  ) {
    super(started);
    this.admin = admin;
    this.#basePaths = basePaths;
    this.#route = route;
  }

  /** `http://HOST:PORT` of the emulator as the test's host reaches it (no trailing slash). */
  getBaseUrl(): string {
    return baseUrlOf(this.startedTestContainer);
  }

  /** The `{base_url}` of an API version, e.g. `http://localhost:32768/api/1.7`. */
  getApiBaseUrl(version: '1.6' | '1.7'): string {
    return `${this.getBaseUrl()}${this.#basePaths[version]}`;
  }

  /** The six GetAccessToken endpoints (spec "Endpoints"): JSON, XML and SOAP of API 1.6 and 1.7. */
  getAccessTokenUrls(): Record<'1.6' | '1.7', { json: string; xml: string; soap: string }> {
    const v16 = this.getApiBaseUrl('1.6');
    const v17 = this.getApiBaseUrl('1.7');
    return {
      '1.6': {
        json: `${v16}/FlightService.json/GetAccessToken`,
        xml: `${v16}/FlightService.xml/GetAccessToken`,
        soap: `${v16}/FlightService.asmx`,
      },
      '1.7': {
        json: `${v17}/AuthService.json/GetAccessToken`,
        xml: `${v17}/AuthService.xml/GetAccessToken`,
        soap: `${v17}/AuthService.asmx`,
      },
    };
  }

  /** The host name or address the container reaches the host receiver by (withHostReceiver). */
  getHostReceiverHost(): string {
    if (!this.#route) throw new Error('No host receiver: call withHostReceiver(port) before start().');
    return this.#route.host;
  }

  /** `https://HOST:PORT/path` of the host receiver as the container reaches it, for a credential's url. */
  getHostReceiverUrl(path = '/'): string {
    const host = this.getHostReceiverHost();
    return `https://${host.includes(':') ? `[${host}]` : host}:${this.#route!.port}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /**
   * A CA and a server certificate for `host` (default: the host receiver's host), made inside the
   * container by `reportbo-emulator certs`; the emulator trusts the CA before this resolves. Serve
   * your receiver with `certPem` and `keyPem`.
   */
  async makeReceiverCertificates(host?: string): Promise<{ caPem: string; certPem: string; keyPem: string }> {
    const name = host ?? this.getHostReceiverHost();
    const dir = `/tmp/receiver-certs-${randomBytes(4).toString('hex')}`;
    const made = await this.exec([
      'node',
      '/app/bin/reportbo-emulator.js',
      'certs',
      '--out',
      dir,
      '--host',
      name,
    ]);
    if (made.exitCode !== 0)
      throw new Error(`certs --host ${name} failed in the container: ${made.output.trim()}`);
    const read = async (file: string) => {
      const res = await this.exec(['cat', `${dir}/${file}`]);
      if (res.exitCode !== 0) throw new Error(`reading ${dir}/${file} failed: ${res.output.trim()}`);
      return res.stdout;
    };
    const [caPem, certPem, keyPem] = [
      await read('ca.pem'),
      await read('server.pem'),
      await read('server-key.pem'),
    ];
    await this.exec(['rm', '-rf', dir]);
    await this.trustCa(caPem);
    return { caPem, certPem, keyPem };
  }

  /** Trusts the PEM CA certificate(s) for deliveries from now on (`POST /__admin/trust`). */
  trustCa(pem: string): Promise<AdminTypes.TrustedCertificate[]> {
    return this.admin.trust(pem);
  }

  protected override async containerStopped(): Promise<void> {
    await this.#route?.network?.stop();
  }
}

function baseUrlOf(started: StartedTestContainer): string {
  const host = started.getHost();
  return `http://${host.includes(':') ? `[${host}]` : host}:${started.getMappedPort(EMULATOR_PORT)}`;
}

/** An admin client that sends the admin token as `Authorization: Bearer` when there is one. */
function adminClientFor(baseUrl: string, token: string | undefined): AdminClient {
  if (token === undefined) return new AdminClient(baseUrl);
  const withToken: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const options: AdminClientOptions = { fetch: withToken };
  return new AdminClient(baseUrl, options);
}

/**
 * Why Testcontainers' port forwarder (an sshd container) cannot start here, or undefined when its
 * image is present or can be pulled. Probed before `exposeHostPorts`, because a failed forwarder
 * start stays cached in Testcontainers and fails every later container start of the process.
 */
async function forwarderUnavailable(): Promise<string | undefined> {
  let image = process.env.SSHD_CONTAINER_IMAGE ?? 'testcontainers/sshd:1.3.0';
  try {
    // Testcontainers' own choice of the image (not a public export: 11.x keeps it there).
    const internal = createRequire(import.meta.url)(
      'testcontainers/build/port-forwarder/port-forwarder.js',
    ) as {
      SSHD_IMAGE?: string;
    };
    image = internal.SSHD_IMAGE ?? image;
  } catch {
    // Another layout: the default name above.
  }
  const client = await getContainerRuntimeClient();
  const name = ImageName.fromString(image);
  try {
    if (!(await client.image.exists(name))) await client.image.pull(name);
    return undefined;
  } catch (err) {
    return `pulling ${image}: ${firstLine(err)}`;
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}

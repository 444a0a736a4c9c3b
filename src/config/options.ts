/**
 * Every `serve` setting once: its flag, its environment variable and its help text. The CLI, the
 * env loader and the README's configuration table all read this list, so they cannot drift apart.
 */
export interface OptionSpec {
  /** Key in the Settings object. */
  key: string;
  /** Commander flag syntax. */
  flag: string;
  /** Environment variables, first match wins. */
  env: readonly string[];
  description: string;
  /** Boolean switches take no value on the command line. */
  kind: 'string' | 'number' | 'boolean';
}

export const SERVE_OPTIONS: readonly OptionSpec[] = [
  {
    key: 'port',
    flag: '--port <n>',
    env: ['REPORTBO_PORT', 'PORT'],
    kind: 'number',
    description: 'TCP port of the provider API and the admin API (default 8080; 0 picks a free port)',
  },
  {
    key: 'host',
    flag: '--host <addr>',
    env: ['REPORTBO_HOST'],
    kind: 'string',
    description: 'address to listen on (default 127.0.0.1; use 0.0.0.0 in containers)',
  },
  {
    key: 'allowedHosts',
    flag: '--allowed-hosts <names>',
    env: ['REPORTBO_ALLOWED_HOSTS'],
    kind: 'string',
    description:
      'comma-separated host names the admin API answers to besides loopback names, IP addresses, names without a dot (docker services) and --host; * allows any (docs/admin-api.md "Security")',
  },
  {
    key: 'adminToken',
    flag: '--admin-token <token>',
    env: ['REPORTBO_ADMIN_TOKEN'],
    kind: 'string',
    description:
      'require "Authorization: Bearer <token>" on every /__admin route but health and the dashboard page (default: no token)',
  },
  {
    key: 'clock',
    flag: '--clock <mode>',
    env: ['REPORTBO_CLOCK'],
    kind: 'string',
    description: 'real | compressed | manual (default real)',
  },
  {
    key: 'hourMs',
    flag: '--hour-ms <ms>',
    env: ['REPORTBO_HOUR_MS'],
    kind: 'number',
    description:
      'compressed clock: real milliseconds per emulator hour (default 60000); the response timeout does not scale with it (a warning at start says when it spans more than 5 emulator minutes)',
  },
  {
    key: 'clockStart',
    flag: '--clock-start <iso>',
    env: ['REPORTBO_CLOCK_START'],
    kind: 'string',
    description: 'compressed/manual clock: emulator start instant, e.g. 2026-04-27T10:00:00Z (default: now)',
  },
  {
    key: 'responseTimeoutMs',
    flag: '--response-timeout-ms <ms>',
    env: ['REPORTBO_RESPONSE_TIMEOUT_MS'],
    kind: 'number',
    description:
      'how long a receiver has to answer a delivery, connect to last byte (default 30000); real time, also with a compressed clock',
  },
  {
    key: 'shutdownGraceMs',
    flag: '--shutdown-grace-ms <ms>',
    env: ['REPORTBO_SHUTDOWN_GRACE_MS'],
    kind: 'number',
    description:
      'on SIGTERM/SIGINT, how long delivery attempts in flight may finish (default 5000); one still running is recorded as interrupted and its notification stays pending',
  },
  {
    key: 'seed',
    flag: '--seed <n>',
    env: ['REPORTBO_SEED'],
    kind: 'number',
    description: 'seed for every generated value (default: chosen at start and logged)',
  },
  {
    key: 'config',
    flag: '--config <file>',
    env: ['REPORTBO_CONFIG'],
    kind: 'string',
    description: 'JSON or YAML file with settings, users and credentials',
  },
  {
    key: 'scenario',
    flag: '--scenario <file>',
    env: ['REPORTBO_SCENARIO'],
    kind: 'string',
    description: 'preload the credentials, users, receivers and settings of a scenario file',
  },
  {
    key: 'dataDir',
    flag: '--data-dir <dir>',
    env: ['REPORTBO_DATA_DIR'],
    kind: 'string',
    description:
      'keep every acknowledged admin change, notification and attempt, and the clock position, in this directory across restarts and kill -9 (default: in memory only)',
  },
  {
    key: 'acceptDataLoss',
    flag: '--accept-data-loss',
    env: ['REPORTBO_ACCEPT_DATA_LOSS'],
    kind: 'boolean',
    description:
      'start on a data dir that has lost acknowledged records (a journal cut, missing or damaged), keeping what is readable; without it such a start is refused, naming what was lost',
  },
  {
    key: 'urlFile',
    flag: '--url-file <file>',
    env: ['REPORTBO_URL_FILE'],
    kind: 'string',
    description:
      'write the URL the emulator listens on to this file once it is ready (the docker HEALTHCHECK reads it)',
  },
  {
    key: 'users',
    flag: '--users <json>',
    env: ['REPORTBO_USERS'],
    kind: 'string',
    description:
      "GetAccessToken users to preload, as a JSON list like a config file's users (replaces the file's list); for service containers, which cannot mount files",
  },
  {
    key: 'credentials',
    flag: '--credentials <json>',
    env: ['REPORTBO_CREDENTIALS'],
    kind: 'string',
    description:
      "credentials to preload, as a JSON list like a config file's credentials (replaces the file's list); for service containers, which cannot mount files",
  },
  {
    key: 'caPem',
    flag: '--ca-pem <pem>',
    env: ['REPORTBO_CA_PEM'],
    kind: 'string',
    description:
      'PEM CA certificate(s) to trust, given as text (\\n escapes allowed), besides --ca-file and the system store',
  },
  {
    key: 'allowHttp',
    flag: '--allow-http',
    env: ['REPORTBO_ALLOW_HTTP'],
    kind: 'boolean',
    description: 'accept plain http:// destinations (each such notification carries a warning)',
  },
  {
    key: 'caFile',
    flag: '--ca-file <file>',
    env: ['REPORTBO_CA_FILE'],
    kind: 'string',
    description: 'PEM CA certificate(s) to trust for https:// destinations, besides the system store',
  },
  {
    key: 'acceptLowercaseKeys',
    flag: '--accept-lowercase-keys',
    env: ['REPORTBO_ACCEPT_LOWERCASE_KEYS'],
    kind: 'boolean',
    description: 'API 1.7: accept lower-case request keys (journaled as a warning)',
  },
  {
    key: 'exchangeNotifies',
    flag: '--exchange-notifies <which>',
    env: ['REPORTBO_EXCHANGE_NOTIFIES'],
    kind: 'string',
    description: 'which reservations an Exchange notifies: new | old | both (default both)',
  },
  {
    key: 'deliveryConcurrency',
    flag: '--delivery-concurrency <n>',
    env: ['REPORTBO_DELIVERY_CONCURRENCY'],
    kind: 'number',
    description: 'most deliveries in flight at once (default 32)',
  },
  {
    key: 'apiVersion16',
    flag: '--api-version-16 <v>',
    env: ['REPORTBO_API_VERSION_16'],
    kind: 'string',
    description: 'X-API-Version header of API 1.6 answers (default 1.6.0.0)',
  },
  {
    key: 'apiVersion17',
    flag: '--api-version-17 <v>',
    env: ['REPORTBO_API_VERSION_17'],
    kind: 'string',
    description: 'X-API-Version header of API 1.7 answers (default 1.7.0.0)',
  },
  {
    key: 'basePath16',
    flag: '--base-path-16 <path>',
    env: ['REPORTBO_BASE_PATH_16'],
    kind: 'string',
    description: 'base path of API 1.6 (default /api/1.6)',
  },
  {
    key: 'basePath17',
    flag: '--base-path-17 <path>',
    env: ['REPORTBO_BASE_PATH_17'],
    kind: 'string',
    description: 'base path of API 1.7 (default /api/1.7)',
  },
  {
    key: 'logLevel',
    flag: '--log-level <level>',
    env: ['REPORTBO_LOG_LEVEL'],
    kind: 'string',
    description: 'silent | error | warn | info | debug (default info)',
  },
  {
    key: 'journalEntries',
    flag: '--journal-entries <n>',
    env: ['REPORTBO_JOURNAL_ENTRIES'],
    kind: 'number',
    description:
      'most GetAccessToken calls GET /__admin/requests keeps, the newest 500 with their request and answer (default 10000; 0 turns the journal off)',
  },
  {
    key: 'logLinesPerSecond',
    flag: '--log-lines-per-second <n>',
    env: ['REPORTBO_LOG_LINES_PER_SECOND'],
    kind: 'number',
    description:
      'most lines a second for successful GetAccessToken calls and for delivered attempts each, then one summary line for the rest of the second; a refused call or failed attempt always has its line (default 10; 0: every line)',
  },
  {
    key: 'notificationRetention',
    flag: '--notification-retention <n>',
    env: ['REPORTBO_NOTIFICATION_RETENTION'],
    kind: 'number',
    description:
      'notifications kept in memory and in the data dir; past it the oldest delivered, exhausted or cancelled ones are dropped, never a pending one, nor an exhausted one no resend or bulk retry took yet (default 100000; 0: no limit)',
  },
  {
    key: 'retentionDropsExhausted',
    flag: '--retention-drops-exhausted',
    env: ['REPORTBO_RETENTION_DROPS_EXHAUSTED'],
    kind: 'boolean',
    description:
      'let --notification-retention drop exhausted notifications no resend or bulk retry took yet (default: they are kept for the bulk retry)',
  },
  {
    key: 'logFormat',
    flag: '--log-format <format>',
    env: ['REPORTBO_LOG_FORMAT'],
    kind: 'string',
    description:
      'pretty (aligned, coloured on a terminal) | json (one object a line) (default: pretty when stderr is a terminal, else json)',
  },
];

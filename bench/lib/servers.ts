/**
 * The GetAccessToken targets, each started as its own process and ready once it answered a first
 * successful 1.7 JSON GetAccessToken: the emulator's real CLI (`--port 0`, user preloaded with
 * `--config`), WireMock's standalone jar, Mockoon's CLI, and a bare Hono handler (the ceiling).
 * The time from spawn to that first answer is the cold start.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BENCH_USER,
  checkStatic,
  isJsonToken,
  jsonRequest17,
  PATH_JSON_17,
  PATH_SOAP_17,
  type SoapNames,
  STATIC_JSON_17,
  soapNamesFromWsdl,
} from './fixtures.js';
import { type HttpAnswer, request } from './http.js';
import { freePort, type Proc, ROOT, spawnProc, waitFor, workDir } from './proc.js';

/** A started target. */
export interface Server {
  /** Short id used in tables and for alternation. */
  key: string;
  /** Human name with version. */
  label: string;
  url: string;
  proc: Proc;
  /** Spawn to first successful 1.7 JSON GetAccessToken, in ms. */
  coldStartMs: number;
  /** Names for the SOAP request (the emulator's come from its WSDL). */
  soap?: SoapNames;
  stop(): Promise<void>;
}

const POLL_MS = 2;
const BENCH_NODE = join(ROOT, 'bench', 'node_modules');

/** Polls a 1.7 JSON GetAccessToken until `ok`; a connection error means "not yet". */
async function firstToken(
  proc: Proc,
  url: string,
  ok: (a: HttpAnswer) => boolean,
  timeoutMs: number,
): Promise<number> {
  const req = jsonRequest17();
  await waitFor(
    `${proc.name}: first GetAccessToken`,
    async () => {
      let answer: HttpAnswer;
      try {
        answer = await request(url + PATH_JSON_17, { method: 'POST', ...req, timeoutMs: 5_000 });
      } catch {
        return undefined; // not listening yet
      }
      if (ok(answer)) return true;
      if (answer.status === 404 || answer.status === 405) {
        throw new Error(
          `${proc.name}: ${PATH_JSON_17} answered ${answer.status}: it does not serve 1.7 JSON GetAccessToken (yet)`,
        );
      }
      return undefined; // e.g. 503 while starting
    },
    { timeoutMs, intervalMs: POLL_MS, proc },
  );
  return performance.now() - proc.spawnedAt;
}

function bounded(proc: Proc): () => Promise<void> {
  return () => proc.stop();
}

/** Options of the emulator's CLI beyond the bench user. */
export interface EmulatorStart {
  /** Extra `serve` flags, e.g. `['--clock', 'manual']`. */
  args?: string[];
  /** Extra top-level config file content (settings, credentials). */
  config?: Record<string, unknown>;
  /** Write a CPU profile (`node --cpu-prof`) into this folder when the process exits. */
  cpuProfDir?: string;
  /** Fixed port instead of `--port 0`. */
  port?: number;
  /** Extra `node` flags (e.g. `--max-old-space-size`). */
  nodeArgs?: string[];
  /** Extra environment variables of the process. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

let configCounter = 0;

/** Starts `node bin/reportbo-emulator.js serve --port 0 --config <file>` and waits for a first token. */
export async function startEmulator(options: EmulatorStart = {}): Promise<Server> {
  const configFile = join(workDir('config'), `emulator-${process.pid}-${++configCounter}.json`);
  writeFileSync(configFile, JSON.stringify({ users: [BENCH_USER], ...options.config }, null, 2));
  const nodeArgs = [
    ...(options.nodeArgs ?? []),
    ...(options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : []),
  ];
  const proc = spawnProc(
    'emulator',
    process.execPath,
    [
      ...nodeArgs,
      join(ROOT, 'bin', 'reportbo-emulator.js'),
      'serve',
      '--port',
      String(options.port ?? 0),
      '--config',
      configFile,
      ...(options.args ?? []),
    ],
    options.env ? { env: options.env } : {},
  );
  try {
    const timeoutMs = options.timeoutMs ?? 20_000;
    // `--port 0`: the address is only known from the "listening on" log line.
    const url = await waitFor(
      'emulator: listening line',
      () => /listening on (http:\/\/[^\s"()]+)/.exec(proc.log())?.[1],
      { timeoutMs, intervalMs: POLL_MS, proc },
    );
    const coldStartMs = await firstToken(proc, url, isJsonToken, timeoutMs);
    let soap: SoapNames | undefined;
    try {
      const wsdl = await request(`${url}${PATH_SOAP_17}?wsdl`);
      if (wsdl.status === 200) soap = soapNamesFromWsdl(wsdl.body);
    } catch {
      // no WSDL: the SOAP figures will say so
    }
    return {
      key: 'emulator',
      label: 'reportbo-emulator',
      url,
      proc,
      coldStartMs,
      ...(soap ? { soap } : {}),
      stop: bounded(proc),
    };
  } catch (err) {
    await proc.stop();
    throw err;
  }
}

/**
 * A user's test process starting the emulator: `import { startEmulator } from '<entry>'` with the
 * bench user, then prints the URL. The script is evaluated from the repository root, so the
 * package name resolves through the root package.json "exports" (dist/ must be built), as in a
 * user's project; `entry` is `reportbo-emulator` (the whole package entry) or
 * `reportbo-emulator/start`.
 */
const PROGRAMMATIC_START = `
const { startEmulator } = await import(process.argv[1]);
const emulator = await startEmulator({ users: JSON.parse(process.argv[2]) });
process.stdout.write('listening on ' + emulator.url + '\\n');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void emulator.stop().then(() => process.exit(0)));
}`;

export async function startProgrammatic(entry: string, timeoutMs = 20_000): Promise<Server> {
  const proc = spawnProc('programmatic', process.execPath, [
    '--input-type=module',
    '-e',
    PROGRAMMATIC_START,
    entry,
    JSON.stringify([BENCH_USER]),
  ]);
  try {
    const url = await waitFor(
      'programmatic: listening line',
      () => /listening on (http:\/\/\S+)/.exec(proc.log())?.[1],
      { timeoutMs, intervalMs: POLL_MS, proc },
    );
    const coldStartMs = await firstToken(proc, url, isJsonToken, timeoutMs);
    return {
      key: `programmatic:${entry}`,
      label: `startEmulator from '${entry}'`,
      url,
      proc,
      coldStartMs,
      stop: bounded(proc),
    };
  } catch (err) {
    await proc.stop();
    throw err;
  }
}

/** The standalone jar the `wiremock` npm package bundles. */
export function wiremockJar(): string {
  const dir = join(BENCH_NODE, 'wiremock', 'build');
  const jar = existsSync(dir)
    ? readdirSync(dir).find((f) => /^wiremock-standalone-.*\.jar$/.test(f))
    : undefined;
  if (!jar) throw new Error(`no WireMock jar in ${dir}: run \`npm ci --prefix bench\``);
  return join(dir, jar);
}

/** `java -jar wiremock-standalone.jar` serving bench/peers/wiremock/mappings. */
export async function startWireMock(timeoutMs = 60_000): Promise<Server> {
  const jar = wiremockJar();
  const port = await freePort();
  // --no-request-journal: WireMock's documented setting for load (the journal otherwise keeps
  // every request and the JVM spends the run collecting it); everything else is default.
  const proc = spawnProc('wiremock', 'java', [
    '-jar',
    jar,
    '--port',
    String(port),
    '--bind-address',
    '127.0.0.1',
    '--root-dir',
    join(ROOT, 'bench', 'peers', 'wiremock'),
    '--no-request-journal',
    '--disable-banner',
  ]);
  const url = `http://127.0.0.1:${port}`;
  try {
    const coldStartMs = await firstToken(proc, url, (a) => a.status === 200, timeoutMs);
    await verifyStatic('wiremock', url);
    const version = /wiremock-standalone-(.*)\.jar$/.exec(jar)?.[1] ?? '';
    return { key: 'wiremock', label: `WireMock ${version}`, url, proc, coldStartMs, stop: bounded(proc) };
  } catch (err) {
    await proc.stop();
    throw err;
  }
}

/** `mockoon-cli start` serving bench/peers/mockoon/environment.json. */
export async function startMockoon(timeoutMs = 60_000): Promise<Server> {
  const port = await freePort();
  const bin = join(BENCH_NODE, '@mockoon', 'cli', 'bin', 'run.js');
  if (!existsSync(bin)) throw new Error(`no Mockoon CLI at ${bin}: run \`npm ci --prefix bench\``);
  // --disable-log-to-file: otherwise it writes a log under the user's home; its per-request
  // stdout log (default) stays on.
  const proc = spawnProc('mockoon', process.execPath, [
    bin,
    'start',
    '--data',
    join(ROOT, 'bench', 'peers', 'mockoon', 'environment.json'),
    '--port',
    String(port),
    '--hostname',
    '127.0.0.1',
    '--disable-log-to-file',
  ]);
  const url = `http://127.0.0.1:${port}`;
  try {
    const coldStartMs = await firstToken(proc, url, (a) => a.status === 200, timeoutMs);
    await verifyStatic('mockoon', url);
    const { version } = JSON.parse(
      readFileSync(join(BENCH_NODE, '@mockoon', 'cli', 'package.json'), 'utf8'),
    ) as { version: string };
    return {
      key: 'mockoon',
      label: `Mockoon CLI ${version}`,
      url,
      proc,
      coldStartMs,
      stop: bounded(proc),
    };
  } catch (err) {
    await proc.stop();
    throw err;
  }
}

/** bench/peers/bare-hono.mjs: the same static answers on the emulator's own HTTP stack. */
export async function startBareHono(timeoutMs = 20_000): Promise<Server> {
  const port = await freePort();
  const proc = spawnProc('bare-hono', process.execPath, [
    join(ROOT, 'bench', 'peers', 'bare-hono.mjs'),
    String(port),
  ]);
  const url = `http://127.0.0.1:${port}`;
  try {
    const coldStartMs = await firstToken(proc, url, (a) => a.status === 200, timeoutMs);
    await verifyStatic('bare-hono', url);
    return { key: 'hono', label: 'bare Hono handler', url, proc, coldStartMs, stop: bounded(proc) };
  } catch (err) {
    await proc.stop();
    throw err;
  }
}

async function verifyStatic(who: string, url: string): Promise<void> {
  const answer = await request(url + PATH_JSON_17, { method: 'POST', ...jsonRequest17() });
  checkStatic(who, answer, STATIC_JSON_17);
}

/** What `verify` accepts (CLI flags, `verifyReceiver` options, `POST /__admin/verify`), checked once here. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { TrustStore } from '../delivery/trust.js';
import { InputError } from '../errors.js';
import { MAX_SEED } from '../generate/random.js';
import { parseOr, type Refusal } from '../model/refusal.js';
import {
  type KitOptions,
  kitRefusal,
  type OptionNaming,
  optionName,
  selectCases,
} from '../report/kit-options.js';
import { CASE_IDS, type CaseId, type VerifyListener } from './types.js';

/** Spec "Limits": the provider waits 30 seconds for an answer. */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
/** How long the probe is asked again until a booking reads right (an asynchronous receiver lags). */
export const DEFAULT_PROBE_DEADLINE_MS = 10_000;
/**
 * How long the experiments on one refused notification may take (decision 0178): the variations take
 * milliseconds each on a quiet loopback; a slow receiver or a starved CI host may need longer.
 */
export const DEFAULT_EXPERIMENT_MS = 10_000;
/**
 * Notifications survives-batch-burst redelivers at once. The spec publishes no concurrency for the
 * provider's batches ("Limits": batches at minute 55); 50 is the kit's assumption, an option.
 */
export const DEFAULT_BURST_CONCURRENCY = 50;
/** The range of `--budget` (`budgetMs`): a second at least, a day at most. */
const MIN_BUDGET_MS = 1_000;
const MAX_BUDGET_MS = 86_400_000;
/** Placeholders a `--probe` URL template may hold. */
export const PROBE_PLACEHOLDERS = ['{BookingID}', '{BookingNumber}'] as const;

/** The options as JSON (the admin route's body; the CLI builds the same object from its flags). */
export const VerifyOptionsSchema = z.strictObject({
  receiver: z.string().min(1, 'give the URL the provider posts notifications to'),
  apiKey: apiKeySchema('give the ApiKey your receiver expects as Bearer token'),
  otherApiKey: apiKeySchema('give the ApiKey of another credential of the same receiver').optional(),
  caFile: z.string().min(1).optional(),
  caPem: z.string().min(1).optional(),
  allowHttp: z.boolean().optional(),
  probe: z.string().min(1).optional(),
  only: z.union([z.string(), z.array(z.string())]).optional(),
  responseTimeoutMs: z.number().int().min(1).max(600_000).optional(),
  seed: z.number().int().min(0).max(MAX_SEED).optional(),
  probeDeadlineMs: z.number().int().min(0).max(600_000).optional(),
  burstConcurrency: z.number().int().min(1).max(1000).optional(),
  experimentMs: z.number().int().min(0).max(600_000).optional(),
  failFast: z.boolean().optional(),
  budgetMs: z
    .number()
    .int()
    .min(MIN_BUDGET_MS, 'a budget under 1 s (1000 ms) leaves no case the time to run; give at least 1s')
    .max(MAX_BUDGET_MS, 'a budget over 24 h (86400000 ms) bounds nothing; give at most 24h')
    .optional(),
});

/**
 * An ApiKey travels in a header: a CR, LF or other control character cannot be sent (and would
 * split the header), so it is bad usage, not a failed case.
 */
function apiKeySchema(missing: string) {
  return z
    .string()
    .trim()
    .min(1, missing)
    .refine((k) => ![...k].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), {
      message:
        'holds a control character (CR, LF, tab, …), which cannot travel in an Authorization header; give the key alone, without line breaks',
    });
}

/** Options of `verifyReceiver` (docs/verify.md). */
export type VerifyOptions = z.input<typeof VerifyOptionsSchema> & {
  /** Called as each case starts and ends (progress). */
  listener?: VerifyListener;
};

/** Options after checking: URLs parsed, CA certificates read, defaults applied. */
export interface ResolvedOptions {
  receiver: string;
  apiKey: string;
  allowHttp: boolean;
  probe: string | undefined;
  cases: ReadonlySet<CaseId>;
  responseTimeoutMs: number;
  seed: number;
  /** The key of another credential (rejects-wrong-api-key sends it too), when given. */
  otherApiKey: string | undefined;
  /** How long a probe check is asked again until it reads right. */
  probeDeadlineMs: number;
  /** Notifications survives-batch-burst redelivers at once. */
  burstConcurrency: number;
  /** How long the experiments on one refused notification may take (0: none are run). */
  experimentMs: number;
  /** Stop at the first failed case (the rest are skipped). */
  failFast: boolean;
  /** The run's time budget: when spent, attempts in flight are cancelled and every wait ends (undefined: none). */
  budgetMs: number | undefined;
  /** PEM certificates trusted besides the system roots. */
  caPems: string[];
}

const VERIFY_OPTIONS: KitOptions = {
  code: 'verify_options_invalid',
  flags: {
    receiver: '--receiver',
    apiKey: '--api-key',
    caFile: '--ca-file',
    caPem: 'caPem',
    allowHttp: '--allow-http',
    probe: '--probe',
    only: '--only',
    responseTimeoutMs: '--response-timeout-ms',
    seed: '--seed',
    otherApiKey: '--other-api-key',
    probeDeadlineMs: '--probe-deadline-ms',
    burstConcurrency: '--burst-concurrency',
    experimentMs: '--experiment-ms',
    failFast: '--fail-fast',
    budgetMs: '--budget',
  },
  required: requiredHint,
  listAccepted: true,
};

/** How options their schema refuses are answered, naming each as `naming` does (JSON member or CLI flag). */
export function verifyRefusal(naming: OptionNaming = 'json'): Refusal {
  return kitRefusal(VERIFY_OPTIONS, naming);
}

/** Checks the options and reads the CA file; every problem is an InputError saying what to fix. */
export async function resolveOptions(
  input: unknown,
  naming: OptionNaming = 'json',
): Promise<ResolvedOptions> {
  const name = optionName(VERIFY_OPTIONS, naming);
  const o = parseOr(VerifyOptionsSchema, verifyRefusal(naming), input);
  const allowHttp = o.allowHttp ?? false;
  const receiver = checkReceiver(o.receiver, allowHttp, name);
  const probe = o.probe === undefined ? undefined : checkProbe(o.probe, name);
  const caPems: string[] = [];
  const trust = new TrustStore();
  if (o.caFile !== undefined) {
    let text: string;
    try {
      text = await readFile(o.caFile, 'utf8');
    } catch (err) {
      throw new InputError(
        'ca_file_unreadable',
        `${name('caFile')} ${o.caFile}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give the PEM file of the CA that signed your receiver's certificate.`,
        { path: 'caFile' },
      );
    }
    try {
      trust.add(text, 'ca-file', `${name('caFile')} ${o.caFile}`);
    } catch (err) {
      if (err instanceof InputError) throw new InputError('ca_file_invalid', err.message, { path: 'caFile' });
      throw err;
    }
  }
  if (o.caPem !== undefined) trust.add(o.caPem, 'admin', name('caPem'));
  caPems.push(...trust.pems());
  return {
    receiver,
    apiKey: o.apiKey,
    allowHttp,
    probe,
    cases: selectCases(o.only, CASE_IDS, 'verify_unknown_case', name('only')),
    responseTimeoutMs: o.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS,
    seed: o.seed ?? Math.floor(Math.random() * MAX_SEED),
    otherApiKey: o.otherApiKey,
    probeDeadlineMs: o.probeDeadlineMs ?? DEFAULT_PROBE_DEADLINE_MS,
    burstConcurrency: o.burstConcurrency ?? DEFAULT_BURST_CONCURRENCY,
    experimentMs: o.experimentMs ?? DEFAULT_EXPERIMENT_MS,
    failFast: o.failFast ?? false,
    budgetMs: o.budgetMs,
    caPems,
  };
}

function requiredHint(key: string): string {
  if (key === 'receiver')
    return 'the URL your receiver takes notifications at, e.g. https://receiver.example/reportbo';
  if (key === 'apiKey') return 'the ApiKey your receiver expects in "Authorization: Bearer <ApiKey>"';
  return 'see reportbo-emulator verify --help';
}

function checkReceiver(value: string, allowHttp: boolean, name: (k: string) => string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(
      'verify_receiver_invalid',
      `${name('receiver')} "${value}" is not an absolute URL; expected e.g. https://receiver.example/reportbo.`,
      { path: 'receiver' },
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError(
      'verify_receiver_invalid',
      `${name('receiver')} "${value}": scheme "${url.protocol}" is not supported; use https://.`,
      { path: 'receiver', accepted: ['https:'] },
    );
  }
  if (url.protocol === 'http:' && !allowHttp) {
    throw new InputError(
      'http_not_allowed',
      `${name('receiver')} "${value}" is plain http; the provider only delivers over HTTPS (TLS 1.2 or higher). ` +
        `Use an https URL, or add ${name('allowHttp')} to check a local receiver (the tls case then warns).`,
      { path: 'receiver', accepted: ['https:'] },
    );
  }
  if (url.username || url.password) {
    throw new InputError(
      'verify_receiver_invalid',
      `${name('receiver')}: user information in the URL is not supported; the ApiKey is sent as the Bearer token.`,
      { path: 'receiver' },
    );
  }
  return url.href;
}

function checkProbe(template: string, name: (k: string) => string): string {
  if (!PROBE_PLACEHOLDERS.some((p) => template.includes(p))) {
    throw new InputError(
      'verify_probe_invalid',
      `${name('probe')} "${template}" holds no placeholder; put {BookingID} or {BookingNumber} where the booking goes, e.g. https://receiver.example/bookings/{BookingID}.`,
      { path: 'probe', accepted: [...PROBE_PLACEHOLDERS] },
    );
  }
  const sample = template.replaceAll('{BookingID}', '1234567').replaceAll('{BookingNumber}', 'ABC123');
  let url: URL | undefined;
  try {
    url = new URL(sample);
  } catch {}
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new InputError(
      'verify_probe_invalid',
      `${name('probe')} "${template}" is not an absolute http(s) URL template; expected e.g. https://receiver.example/bookings/{BookingID}.`,
      { path: 'probe' },
    );
  }
  return template;
}

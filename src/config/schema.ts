import { z } from 'zod';
import { instantProblem } from '../clock/bounds.js';
import { HOUR_MS } from '../clock/schedule.js';
import { CLOCK_MODES } from '../clock/types.js';
import { LOG_FORMATS, LOG_LEVELS } from '../log.js';

/** Notifications kept by default: ~2 KB each, so about 200 MB at most (docs/delivery.md "Retention"). */
export const DEFAULT_NOTIFICATION_RETENTION = 100_000;

/** Where GetAccessToken answers by default, per API version (spec "Endpoints"). */
export const DEFAULT_BASE_PATHS = { '1.6': '/api/1.6', '1.7': '/api/1.7' } as const;

/** An ISO 8601 instant inside the accepted range (src/clock/bounds.ts); a zone is optional here. */
const isoInstant = z.string().superRefine((s, ctx) => {
  const problem = instantProblem(s, false);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Text that goes into an HTTP header as is: printable ASCII, no CR/LF, not blank. */
const headerText = (what: string) =>
  z.string().regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/, {
    message: `expected ${what}: printable ASCII without line breaks, not blank, no surrounding spaces`,
  });

/** Settings of one emulator instance. Every field has a default, so `{}` is a valid configuration. */
export const SettingsSchema = z.object({
  port: z.number().int().min(0).max(65_535).default(8080),
  host: z.string().min(1).default('127.0.0.1'),
  clock: z.enum(CLOCK_MODES).default('real'),
  /** Host names the admin API answers to besides the built-in ones (decision 0040); a comma list or a list. */
  allowedHosts: z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (typeof v === 'string' ? v.split(',') : v).map((h) => h.trim().toLowerCase()).filter((h) => h !== ''),
    )
    .default([]),
  /** When set, every admin route but health and the dashboard page needs it as a Bearer token (decision 0041). */
  adminToken: headerText('a token').optional(),
  hourMs: z.number().int().min(100).max(HOUR_MS).default(60_000),
  clockStart: isoInstant.optional(),
  responseTimeoutMs: z.number().int().min(1).max(600_000).default(30_000),
  /** How long attempts in flight may finish when the emulator stops (decision 0043). */
  shutdownGraceMs: z.number().int().min(0).max(600_000).default(5_000),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  allowHttp: z.boolean().default(false),
  caFile: z.string().min(1).optional(),
  acceptLowercaseKeys: z.boolean().default(false),
  exchangeNotifies: z.enum(['new', 'old', 'both']).default('both'),
  deliveryConcurrency: z.number().int().min(1).max(1_024).default(32),
  apiVersion16: headerText('a version').default('1.6.0.0'),
  apiVersion17: headerText('a version').default('1.7.0.0'),
  basePath16: z
    .string()
    .regex(/^\/[^?#]*$/, 'expected a path starting with /')
    .default(DEFAULT_BASE_PATHS['1.6']),
  basePath17: z
    .string()
    .regex(/^\/[^?#]*$/, 'expected a path starting with /')
    .default(DEFAULT_BASE_PATHS['1.7']),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  /**
   * Most GetAccessToken calls the journal keeps (`GET /__admin/requests`), like WireMock's
   * `--max-request-journal-entries`; 0 turns the journal off. The newest 500 keep their request and answer.
   */
  journalEntries: z.number().int().min(0).max(1_000_000).default(10_000),
  /**
   * At most this many GetAccessToken lines and this many delivery-attempt lines a second, then one
   * summary line (decision 0140); 0: every line.
   */
  logLinesPerSecond: z.number().int().min(0).max(1_000_000).default(10),
  /** Absent: pretty when stderr is a terminal, JSON otherwise (decided where the logger is made). */
  logFormat: z.enum(LOG_FORMATS).optional(),
  /**
   * Notifications kept (memory and data dir alike): past it the oldest settled ones are dropped,
   * never a pending one (decision 0127). 0: no limit.
   */
  notificationRetention: z.number().int().min(0).max(100_000_000).default(DEFAULT_NOTIFICATION_RETENTION),
  /** Whether retention may drop exhausted notifications no resend or bulk retry took yet (decision 0211). */
  retentionDropsExhausted: z.boolean().default(false),
  /** Where state is kept across restarts (decision 0080); absent: in memory only. */
  dataDir: z.string().min(1).optional(),
  /** Start on a data dir that lost acknowledged records, keeping what is readable (decision 0111). */
  acceptDataLoss: z.boolean().default(false),
  /** File paths only the process shell reads. */
  config: z.string().optional(),
  scenario: z.string().optional(),
  urlFile: z.string().optional(),
});

export type Settings = z.infer<typeof SettingsSchema>;
export type SettingsInput = z.input<typeof SettingsSchema>;

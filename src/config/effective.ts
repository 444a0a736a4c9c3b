import type { Settings } from './schema.js';

/**
 * The settings an emulator runs with, as `GET /__admin/config` answers them and the start log line
 * lists them. No secrets: ApiKeys and passwords live in credentials and users, never here; the CA
 * file is named by its path and counted, never shown.
 */
export interface EffectiveConfig {
  responseTimeoutMs: number;
  allowHttp: boolean;
  clock: { mode: Settings['clock']; hourMs: number | null };
  deliveryConcurrency: number;
  apiVersions: { '1.6': string; '1.7': string };
  basePaths: { '1.6': string; '1.7': string };
  caFile: string | null;
  /** Certificates trusted for https:// destinations besides the system roots (CA file and admin). */
  trustedCaCount: number;
  acceptLowercaseKeys: boolean;
  exchangeNotifies: Settings['exchangeNotifies'];
  seed: number;
  logLevel: Settings['logLevel'];
  /** Where state is kept across restarts (decision 0080), or null: in memory only. */
  dataDir: string | null;
}

/** The effective configuration of a running emulator (`seed` is the one in use, given or chosen). */
export function effectiveConfig(settings: Settings, seed: number, trustedCaCount: number): EffectiveConfig {
  return {
    responseTimeoutMs: settings.responseTimeoutMs,
    allowHttp: settings.allowHttp,
    // hourMs only means something on the compressed clock.
    clock: { mode: settings.clock, hourMs: settings.clock === 'compressed' ? settings.hourMs : null },
    deliveryConcurrency: settings.deliveryConcurrency,
    apiVersions: { '1.6': settings.apiVersion16, '1.7': settings.apiVersion17 },
    basePaths: { '1.6': settings.basePath16, '1.7': settings.basePath17 },
    caFile: settings.caFile ?? null,
    trustedCaCount,
    acceptLowercaseKeys: settings.acceptLowercaseKeys,
    exchangeNotifies: settings.exchangeNotifies,
    seed,
    logLevel: settings.logLevel,
    dataDir: settings.dataDir ?? null,
  };
}

import type { Settings } from './schema.js';

/**
 * The settings an emulator runs with, as `GET /__admin/config` answers them and the start log line
 * lists them. No secrets: ApiKeys and passwords live in credentials and users, never here; the CA
 * file is named by its path and counted, never shown; the admin token only as set or not. Its
 * shape is the admin contract's `EffectiveConfig`: `mount` checks the route's answer against it
 * (the domain does not import the contract). `seed` is the one in use, given or chosen.
 */
export function effectiveConfig(settings: Settings, seed: number, trustedCaCount: number) {
  return {
    responseTimeoutMs: settings.responseTimeoutMs,
    shutdownGraceMs: settings.shutdownGraceMs,
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
    logLinesPerSecond: settings.logLinesPerSecond,
    notificationRetention: settings.notificationRetention,
    retentionDropsExhausted: settings.retentionDropsExhausted,
    journalEntries: settings.journalEntries,
    allowedHosts: settings.allowedHosts,
    adminToken: settings.adminToken !== undefined,
    dataDir: settings.dataDir ?? null,
  };
}

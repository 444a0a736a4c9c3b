import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  createServerCertificate,
  type ServerCertificate,
} from '../../certs/index.js';
import { parseDurationMs } from '../../clock/duration.js';
import { type Receiver, type ReceiverBehaviour, startReceiver } from '../../receivers/index.js';
import type { ReceiverAction, ReceiverSpec } from '../schema/index.js';

/** The built-in receivers of one scenario, listening on loopback. */
export interface ScenarioReceivers {
  readonly byName: ReadonlyMap<string, Receiver>;
  /** PEM file of the CA that signed the HTTPS receivers' certificate (absent without HTTPS receivers). */
  readonly caFile?: string;
  /** The same CA certificate as PEM text (absent without HTTPS receivers). */
  readonly caPem?: string;
  close(): Promise<void>;
}

let tls: { ca: CertificateAuthority; server: ServerCertificate } | undefined;

/** One CA and one loopback certificate per process: key generation is the slow part of TLS. */
function loopbackTls() {
  if (!tls) {
    const ca = createCertificateAuthority({ commonName: 'reportbo-emulator scenario receivers CA' });
    tls = { ca, server: createServerCertificate({ ca, hosts: ['127.0.0.1', 'localhost', '::1'] }) };
  }
  return tls;
}

/** Maps a scenario action to the receiver's behaviour. */
export function toBehaviour(action: ReceiverAction): ReceiverBehaviour {
  if (typeof action === 'number') return { kind: 'status', status: action };
  if (action === 'hang') return { kind: 'hang' };
  if (action === 'reset') return { kind: 'reset-before-headers' };
  if (action === 'reset-after-headers') return { kind: 'reset-after-headers' };
  if (action === 'endless') return { kind: 'endless-body' };
  if ('slow' in action) return { kind: 'slow', delayMs: parseDurationMs(action.slow), status: action.status };
  if ('redirect' in action) return { kind: 'redirect', location: action.redirect, status: action.status };
  return {
    kind: 'status',
    status: action.status,
    ...(action.body === undefined ? {} : { body: action.body }),
  };
}

/** Starts every receiver a scenario declares; request n gets script item n, the last item repeats. */
export async function startScenarioReceivers(specs: readonly ReceiverSpec[]): Promise<ScenarioReceivers> {
  const byName = new Map<string, Receiver>();
  const needsTls = specs.some((s) => s.protocol === 'https');
  const material = needsTls ? loopbackTls() : undefined;
  let dir: string | undefined;
  let caFile: string | undefined;
  try {
    for (const spec of specs) {
      const script = (Array.isArray(spec.behaviour) ? spec.behaviour : [spec.behaviour]).map(toBehaviour);
      const receiver = await startReceiver({
        ...(spec.protocol === 'https' && material
          ? { tls: { certPem: material.server.certPem, keyPem: material.server.keyPem } }
          : {}),
        script: (req) => script[Math.min(req.index, script.length) - 1],
      });
      byName.set(spec.name, receiver);
    }
    if (material) {
      dir = await mkdtemp(join(tmpdir(), 'reportbo-scenario-'));
      caFile = join(dir, 'ca.pem');
      await writeFile(caFile, material.ca.certPem);
    }
  } catch (err) {
    await Promise.all([...byName.values()].map((r) => r.close()));
    throw err;
  }
  return {
    byName,
    ...(caFile && material ? { caFile, caPem: material.ca.certPem } : {}),
    async close() {
      await Promise.all([...byName.values()].map((r) => r.close()));
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/** What a Dockerfile's final stage says about how its container starts and is checked. */
export interface ImageSpec {
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
  /** HEALTHCHECK's exec-form command (after `CMD`). */
  healthcheck: string[];
}

/** One compose service as the example file declares it. */
export interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  build?: { context: string; dockerfile: string };
  depends_on?: Record<string, { condition: string }>;
}

/** Reads the final stage of a Dockerfile: ENTRYPOINT, CMD, ENV and the HEALTHCHECK command (exec forms only). */
export function readImageSpec(file: string): ImageSpec {
  // Join continuation lines, drop comments, keep the last stage.
  const lines = readFileSync(file, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const lastFrom = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const spec: ImageSpec = { entrypoint: [], cmd: [], env: {}, healthcheck: [] };
  for (const line of lines.slice(lastFrom)) {
    const [, instruction = '', rest = ''] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    switch (instruction.toUpperCase()) {
      case 'ENTRYPOINT':
        spec.entrypoint = JSON.parse(rest) as string[];
        break;
      case 'CMD':
        spec.cmd = JSON.parse(rest) as string[];
        break;
      case 'ENV':
        for (const m of rest.matchAll(/(\w+)=("[^"]*"|\S+)/g)) spec.env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
        break;
      case 'HEALTHCHECK':
        spec.healthcheck = JSON.parse(rest.slice(rest.indexOf('CMD') + 3).trim()) as string[];
        break;
    }
  }
  return spec;
}

/** The services of a compose file, keyed by name. */
export function readComposeServices(file: string): Record<string, ComposeService> {
  const doc = parseYaml(readFileSync(file, 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  return doc.services;
}

/** Replaces every occurrence of each key with its value in each string (container paths → host paths). */
export function mapStrings<T extends string[] | Record<string, string>>(
  value: T,
  map: Record<string, string>,
): T {
  const one = (s: string) => Object.entries(map).reduce((acc, [from, to]) => acc.split(from).join(to), s);
  if (Array.isArray(value)) return value.map(one) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, one(v)])) as T;
}

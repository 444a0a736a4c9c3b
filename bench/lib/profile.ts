/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and answers where the time went: the functions with
 * the most self time and the same grouped by package or source folder, as markdown tables.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './proc.js';
import { fmt, table } from './stats.js';

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** The newest `.cpuprofile` in a folder, or undefined. */
export function newestProfile(dir: string): string | undefined {
  let best: { file: string; mtime: number } | undefined;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.cpuprofile')) continue;
    const file = join(dir, f);
    const mtime = statSync(file).mtimeMs;
    if (!best || mtime > best.mtime) best = { file, mtime };
  }
  return best?.file;
}

function where(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (path.startsWith('node:')) return 'node core';
  const rel = relative(ROOT, path);
  return rel.startsWith('..') ? path : rel.split('/').slice(0, 2).join('/');
}

/** Top functions by self time and self time by package/folder, as markdown. */
export function summarizeProfile(file: string, top = 12): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFn = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (!us) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    total += us;
    const place = functionName.startsWith('(') ? functionName : where(url);
    const fnKey = `\`${functionName || '(anonymous)'}\` ${url ? `${relative(ROOT, url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : ''}`;
    byFn.set(fnKey, (byFn.get(fnKey) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => [k, fmt(us / 1000, 1), `${fmt((100 * us) / total, 1)}%`]);
  return [
    `Profile \`${relative(ROOT, file)}\`: ${fmt(total / 1000)} ms on CPU, ${fmt(idle / 1000)} ms idle.`,
    '',
    table(['Self time by package / folder', 'ms', 'share'], rows(byPlace)),
    '',
    table(['Function (self time)', 'ms', 'share'], rows(byFn)),
  ].join('\n');
}

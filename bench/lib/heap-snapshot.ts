/**
 * Where a process's bytes go, from two V8 heap snapshots (`.heapsnapshot` JSON): every node's self
 * size summed by class (an object's constructor name, an array's role such as `(object properties)`,
 * a native's name such as `system / JSArrayBufferData`, strings and code by type), and the growth
 * per class between a snapshot before and one after some work.
 */
import { readFileSync } from 'node:fs';

interface SnapshotJson {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Bytes and node count per class. */
export type ClassSizes = Map<string, { bytes: number; count: number }>;

const BY_TYPE_ONLY = new Set([
  'string',
  'concatenated string',
  'sliced string',
  'code',
  'number',
  'symbol',
  'bigint',
]);

function classOf(type: string, name: string, members: string[]): string {
  if (BY_TYPE_ONLY.has(type)) return `(${type})`;
  const short = name.length > 60 ? `${name.slice(0, 57)}…` : name;
  if (type !== 'object') return `(${type}) ${short}`;
  // Plain objects told apart by their first members: which record they are.
  if (name === 'Object' && members.length) {
    const shown = members.slice(0, 4).join(', ');
    return `Object {${shown}${members.length > 4 ? ', …' : ''}}`;
  }
  return short;
}

/** Sums every node's self size by class (plain objects by their first property names). */
export function classSizes(file: string): ClassSizes {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as SnapshotJson;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const edgeCountAt = fields.indexOf('edge_count');
  const edgeFields = snap.snapshot.meta.edge_fields;
  const edgeWidth = edgeFields.length;
  const edgeTypeAt = edgeFields.indexOf('type');
  const edgeNameAt = edgeFields.indexOf('name_or_index');
  const propertyType = snap.snapshot.meta.edge_types[0].indexOf('property');
  const sizes: ClassSizes = new Map();
  let edge = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const edgeCount = snap.nodes[i + edgeCountAt]!;
    const members: string[] = [];
    for (let e = edge; e < edge + edgeCount * edgeWidth; e += edgeWidth) {
      if (snap.edges[e + edgeTypeAt] === propertyType)
        members.push(snap.strings[snap.edges[e + edgeNameAt]!]!);
    }
    edge += edgeCount * edgeWidth;
    const key = classOf(types[snap.nodes[i + typeAt]!]!, snap.strings[snap.nodes[i + nameAt]!]!, members);
    const entry = sizes.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += snap.nodes[i + sizeAt]!;
    entry.count++;
    sizes.set(key, entry);
  }
  return sizes;
}

/** Growth per class from `before` to `after`, largest first (classes that shrank are left out). */
export function growth(
  before: ClassSizes,
  after: ClassSizes,
): Array<{ name: string; bytes: number; count: number }> {
  const rows: Array<{ name: string; bytes: number; count: number }> = [];
  for (const [name, a] of after) {
    const b = before.get(name) ?? { bytes: 0, count: 0 };
    if (a.bytes > b.bytes) rows.push({ name, bytes: a.bytes - b.bytes, count: a.count - b.count });
  }
  return rows.sort((x, y) => y.bytes - x.bytes);
}

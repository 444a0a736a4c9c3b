import { type Document, isMap, isNode, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

export interface Position {
  line: number;
  column: number;
}

/**
 * Finds where a field path points in a parsed YAML/JSON document. When the path ends at a key that
 * is absent (a missing field), the position of the nearest present parent is returned; with
 * `keyOf`, the position of that key inside the map at `path` (for unknown fields).
 */
export function positionOf(
  doc: Document,
  lines: LineCounter,
  path: readonly PropertyKey[],
  keyOf?: string,
): Position | undefined {
  let node: unknown = doc.contents;
  let best: Node | undefined = isNode(node) ? node : undefined;
  for (const part of path) {
    const next = child(node, part);
    if (!isNode(next)) break;
    node = next;
    best = next;
  }
  if (keyOf !== undefined && isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === keyOf);
    if (pair && isNode(pair.key)) best = pair.key;
  }
  const offset = best?.range?.[0];
  if (offset === undefined) return undefined;
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

function child(node: unknown, part: PropertyKey): unknown {
  if (isMap(node)) return node.get(String(part), true);
  if (isSeq(node) && typeof part === 'number') return node.get(part, true);
  return undefined;
}

/**
 * The fenced code blocks of README.md and docs/*.md (decision records aside), each with how it is
 * checked: inside `<!-- tour:start -->`…`<!-- tour:end -->` (test/readme-tour.test.ts runs it),
 * after `<!-- run: RUNNER FILE -->` (test/packed-install.package.test.ts writes it to FILE in a fresh
 * project and runs it with RUNNER: node, vitest or jest), or after `<!-- needs: … -->`, which says in
 * one line what the block needs first and which test, if any, runs its content. A block after
 * `<!-- ci-recipe -->` or `<!-- ci-file: PATH -->` (docs/ci.md) is run by test/ci-recipes.test.ts, one
 * after `<!-- typegen: FILE -->` (docs/contract.md) by test/contract-typegen.package.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DOC_ROOT = new URL('../../', import.meta.url).pathname;

/** README.md and every docs/*.md but the decision records. */
export const DOC_FILES = [
  'README.md',
  ...readdirSync(join(DOC_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

export type BlockMark =
  | { kind: 'tour' }
  | { kind: 'run'; runner: 'node' | 'vitest' | 'jest'; file: string }
  | { kind: 'needs'; what: string }
  | { kind: 'none' };

export interface DocBlock {
  /** e.g. `README.md:42` (the opening fence's line). */
  where: string;
  lang: string;
  text: string;
  mark: BlockMark;
}

export function docBlocks(file: string): DocBlock[] {
  const lines = readFileSync(join(DOC_ROOT, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let inTour = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('<!-- tour:start -->')) inTour = true;
    if (line.startsWith('<!-- tour:end -->')) inTour = false;
    const fence = /^(\s*)(`{3,})(\S*)/.exec(line);
    if (!fence) continue;
    const [, indent, ticks, lang] = fence;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith(`${indent}${ticks}`)) end++;
    const text = lines
      .slice(i + 1, end)
      .map((l) => l.slice(indent!.length))
      .join('\n');
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const comment = before >= 0 ? /^\s*<!-- (run|needs): (.+?) -->$/.exec(lines[before]!) : null;
    const recipe = before >= 0 ? /^<!-- (ci-recipe|ci-file: .+|typegen: .+) -->$/.exec(lines[before]!) : null;
    let mark: BlockMark = { kind: 'none' };
    if (inTour) mark = { kind: 'tour' };
    else if (recipe?.[1]?.startsWith('typegen'))
      mark = {
        kind: 'needs',
        what: 'the generated types: test/contract-typegen.package.test.ts type-checks it',
      };
    else if (recipe)
      mark = { kind: 'needs', what: 'a CI runner: test/ci-recipes.test.ts runs it as written' };
    else if (comment?.[1] === 'needs') mark = { kind: 'needs', what: comment[2]! };
    else if (comment?.[1] === 'run') {
      const [runner, target] = comment[2]!.split(' ');
      if (runner === 'node' || runner === 'vitest' || runner === 'jest')
        mark = { kind: 'run', runner, file: target! };
    }
    blocks.push({ where: `${file}:${i + 1}`, lang: lang!, text, mark });
    i = end;
  }
  return blocks;
}

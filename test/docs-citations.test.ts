/**
 * The map inside the repository holds: every `spec "X"`, `product rule "X"` (and legacy `DESIGN "X"`)
 * cited in src/, ui/, test/, bench/ and docker/ has an anchor in docs/spec-rules.md, every `decision NNNN` cited in src/,
 * ui/, test/, README.md and docs/ has its record in docs/decisions/, no comment in src/ or ui/ cites
 * an issue number, and every relative link of README.md and docs/ (files and anchors) resolves.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url).pathname;
const SPEC_RULES = 'docs/spec-rules.md';
const DECISIONS = 'docs/decisions';
const SELF = 'test/docs-citations.test.ts';

/** Files under `dir` (relative to the root) whose names end in one of `exts`. */
function filesUnder(dir: string, exts: string[]): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : filesUnder(path, exts);
    return exts.some((x) => e.name.endsWith(x)) ? [path] : [];
  });
}

function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

interface Anchors {
  ids: Set<string>;
  headings: string[];
}

/** The anchors of a markdown file: its headings (outside code fences, duplicates numbered) and `<a id>`s. */
function anchorsOf(markdown: string): Anchors {
  const ids = new Set<string>();
  const headings: string[] = [];
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const h = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      ids.add(n === 0 ? base : `${base}-${n}`);
      headings.push(h[1]!);
    }
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(id!);
  }
  return { ids, headings };
}

interface Citation {
  kind: string;
  name: string;
  where: string;
}

const KINDS = '(spec|product rule|DESIGN)';
/** `spec "A"`, optionally followed by further sections: `spec "A" 3, "B"`, `spec "A" rule 2 and "B"`. */
const FIRST = new RegExp(String.raw`\b${KINDS}\s+["“]([^"”\n]+)["”]`, 'gi');
const MORE = /^(?:\s+(?:rule\s+)?\d+)?\s*(?:,|\band\b)\s*["“]([^"”\n]+)["”]/;

/** Every spec / product rule / DESIGN citation in `text`, with its line. */
function citationsIn(text: string, file: string): Citation[] {
  const out: Citation[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    for (const m of line.matchAll(FIRST)) {
      const kind = m[1]!.toLowerCase() === 'design' ? 'DESIGN' : m[1]!.toLowerCase();
      const where = `${file}:${i + 1}`;
      out.push({ kind, name: m[2]!, where });
      let rest = line.slice(m.index! + m[0].length);
      for (let more = MORE.exec(rest); more; more = MORE.exec(rest)) {
        out.push({ kind, name: more[1]!, where });
        rest = rest.slice(more.index + more[0].length);
      }
    }
  }
  return out;
}

const DOCS = ['README.md', ...filesUnder('docs', ['.md'])];
const CODE = [...filesUnder('src', ['.ts']), ...filesUnder('ui', ['.js', '.html'])];
/** Where citations are checked: the code, and the tests, bench and docker files that cite the spec too. */
const CITING = [
  ...CODE,
  ...filesUnder('test', ['.ts']).filter((f) => f !== SELF),
  ...filesUnder('bench', ['.ts', '.mjs']),
  ...filesUnder('docker', ['.js', '.mjs']),
  ...DOCS.filter((f) => f !== SPEC_RULES),
];

describe('citations in the code resolve inside the repository', () => {
  const rules = anchorsOf(read(SPEC_RULES));

  it('finds the citations it checks (the extractor reads lists of sections)', () => {
    expect(
      citationsIn('// spec "Limits", "Authentication" 2 and "Errors"', 'x.ts').map((c) => c.name),
    ).toEqual(['Limits', 'Authentication', 'Errors']);
    expect(citationsIn('rule: \'spec "Endpoints 1" rule 2: exactly 200\'', 'x.ts')[0]).toEqual({
      kind: 'spec',
      name: 'Endpoints 1',
      where: 'x.ts:1',
    });
    expect(slug('1. Notification delivery (outbound from the service)')).toBe(
      '1-notification-delivery-outbound-from-the-service',
    );
    expect(slug('GetAccessTokenResponse (API 1.7)')).toBe('getaccesstokenresponse-api-17');
    // Enough to know the scan reached the code (the code cites the spec in dozens of places).
    expect(CODE.flatMap((f) => citationsIn(read(f), f)).length).toBeGreaterThan(50);
  });

  it('gives every section heading of the spec an anchor in docs/spec-rules.md', () => {
    const headings = [
      'What the service does',
      'Resources and their fields',
      'Notification body (after GZip decompression)',
      'Reservation',
      'Commission',
      'Over',
      'Fees',
      'Remark (each element)',
      'Product',
      'Ratio (each element)',
      'Van (each element)',
      'Payment (each element)',
      'Ticket (each element)',
      'Segment (each element)',
      'Pax (each element)',
      'Tax (each element)',
      'GetAccessToken request (API 1.7)',
      'GetAccessTokenResponse (API 1.7)',
      'States and transitions',
      'Endpoints',
      '1. Notification delivery (outbound from the service)',
      '2. Manual redelivery (servicing tool, not an HTTP operation of this interface)',
      '3. GetAccessToken',
      'Authentication',
      'Events',
      'Errors',
      'Limits',
      'Versioning',
    ];
    expect(headings.filter((h) => !rules.ids.has(slug(h)))).toEqual([]);
  });

  it('resolves every spec "X", product rule "X" and DESIGN "X" cited in src/, ui/, test/, bench/, docker/ and the docs to an anchor of docs/spec-rules.md', () => {
    const broken = CITING.flatMap((f) => citationsIn(read(f), f))
      .filter((c) => !rules.ids.has(slug(c.name)))
      .map(
        (c) =>
          `${c.kind} "${c.name}" cited at ${c.where} has no anchor in ${SPEC_RULES} (looked for #${slug(c.name)}); ` +
          'cite a heading exactly as written there, or add one',
      );
    const headings = `headings are: ${rules.headings.map((h) => `"${h}"`).join(', ')}`;
    expect(broken, [...broken, headings].join('\n')).toEqual([]);
  });

  it("points every docs/spec-rules.md#anchor written in src/ and ui/ (verify's rule lines) at an anchor that exists", () => {
    const broken = CODE.flatMap((f) =>
      read(f)
        .split('\n')
        .flatMap((line, i) =>
          [...line.matchAll(/spec-rules\.md#([\w-]+)/g)]
            .filter((m) => !rules.ids.has(m[1]!))
            .map(
              (m) =>
                `${f}:${i + 1}: ${SPEC_RULES}#${m[1]} has no such anchor; anchors are: ${[...rules.ids].join(', ')}`,
            ),
        ),
    );
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('finds a record in docs/decisions/ for every "decision NNNN" cited in src/, ui/, test/, README.md and docs/', () => {
    const records = new Set(readdirSync(join(ROOT, DECISIONS)).map((f) => f.slice(0, 4)));
    const files = [...CODE, ...filesUnder('test', ['.ts']).filter((f) => f !== SELF), ...DOCS];
    const broken: string[] = [];
    for (const file of files) {
      for (const [i, line] of read(file).split('\n').entries()) {
        for (const m of line.matchAll(/\bdecisions?\s+((?:\d{4}(?:,\s*|\s+and\s+|–|-)?)+)/gi)) {
          for (const n of m[1]!.match(/\d{4}/g) ?? []) {
            if (!records.has(n))
              broken.push(`decision ${n} cited at ${file}:${i + 1} has no file ${DECISIONS}/${n}-*.md`);
          }
        }
      }
    }
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('cites decision records, not issue numbers, in the comments of src/ and ui/', () => {
    const found = CODE.flatMap((f) =>
      read(f)
        .split('\n')
        .flatMap((line, i) =>
          /\bissue[- ]\d+\b|docs\/decisions\.md/i.test(line) && /\/\/|\/\*|^\s*\*/.test(line)
            ? [`${f}:${i + 1}: ${line.trim()} (cite the decision record instead: docs/decisions/README.md)`]
            : [],
        ),
    );
    expect(found, found.join('\n')).toEqual([]);
  });
});

describe('relative links of README.md and docs/ resolve', () => {
  it('points every relative link at an existing file, and at an existing heading when it names one', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      let fenced = false;
      for (const [i, line] of read(doc).split('\n').entries()) {
        if (/^\s*```/.test(line)) fenced = !fenced;
        if (fenced) continue;
        for (const [, target] of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
          const [path, anchor] = target!.split('#') as [string, string | undefined];
          const file = path === '' ? doc : relative(ROOT, resolve(ROOT, dirname(doc), path));
          const where = `${doc}:${i + 1}`;
          if (!existsSync(join(ROOT, file))) {
            broken.push(`${where}: link "${target}" → ${file} does not exist`);
            continue;
          }
          if (anchor && file.endsWith('.md') && statSync(join(ROOT, file)).isFile()) {
            const { ids, headings } = anchorsOf(read(file));
            if (!ids.has(anchor))
              broken.push(
                `${where}: link "${target}": ${file} has no anchor #${anchor}; headings are: ${headings.join(', ')}`,
              );
          }
        }
      }
    }
    expect(broken, broken.join('\n')).toEqual([]);
  });
});

/** The files of the repository (git's view when there is one: no node_modules, no dist). */
const TRACKED = [
  ...filesUnder('src', ['']),
  ...filesUnder('ui', ['']),
  ...filesUnder('test', ['']),
  ...filesUnder('bench', ['']),
  ...filesUnder('docker', ['']),
  ...filesUnder('docs', ['']),
  ...filesUnder('scenarios', ['']),
  ...filesUnder('scripts', ['']),
  ...filesUnder('packages', ['']).filter((f) => !f.includes('/dist/')),
  ...readdirSync(ROOT).filter((f) => statSync(join(ROOT, f)).isFile()),
];
const TOP = new Set(readdirSync(ROOT));
/** The code a cited name must be declared in. */
const DECLARING = [
  ...CODE,
  ...filesUnder('test', ['.ts']),
  ...filesUnder('bench', ['.ts', '.mjs']),
  ...filesUnder('scripts', ['.mjs', '.ts']),
  ...['package.json', 'tsconfig.json', 'ui/tsconfig.json'],
];

let declaring: string | undefined;
/** The declaring files' text, read once. */
function declaringText(): string {
  declaring ??= DECLARING.map(read).join('\n');
  return declaring;
}

/** Where `name` is declared: a function, class, type, constant, method or member of that name. */
function declared(name: string): boolean {
  const n = name.replace(/[$]/g, '\\$&');
  const pattern = new RegExp(
    String.raw`(?:\b(?:function\*?|class|interface|type|enum|const|let|var)\s+${n}\b)|(?:^\s*(?:(?:export|public|private|protected|static|readonly|async|get|set|override|declare)\s+)*${n}\s*\??\s*[(<:=])|(?:[{,]\s*${n}\s*[,}:])|(?:"${n}"\s*:)`,
    'm',
  );
  return pattern.test(declaringText());
}

/** A code span that names a file: a path with a folder, or a file name with a known extension. */
function fileOf(span: string): string | undefined {
  const path = span.replace(/[:#(].*$/, '').replace(/\/$/, '');
  if (/\s|\*|\{|\.\.\./.test(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(span)) return undefined;
  if (/^\.?[\w.-]+\.(?:ts|mts|js|mjs|cjs|json|md|ya?ml|html|css|sh|py)$/.test(path)) return path;
  if (/^[\w.-]+(?:\/[\w.-]+)+$/.test(path) && (TOP.has(path.split('/')[0]!) || /\.\w+$/.test(path)))
    return path;
  return undefined;
}

/** A code span that names code: a call (`apply()`), a private member (`#send`), a dotted member, a constant or a camelCase name. */
function namesOf(span: string): string[] {
  if (fileOf(span)) return [];
  const m = /^(#?[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)*)(\([^)]*\))?$/.exec(span);
  if (!m) return [];
  const parts = m[1]!.split('.');
  // A member of a runtime global (`Buffer.byteLength`, `JSON.stringify`) is Node's, not ours.
  if (parts.length > 1 && parts[0]! in globalThis) return [];
  const last = parts.at(-1)!.replace(/^#/, '#');
  const isCode =
    m[2] !== undefined ||
    last.startsWith('#') ||
    parts.length > 1 ||
    /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(last) ||
    /^[a-z]+[A-Z]\w*$/.test(last);
  if (!isCode) return [];
  const names = [last];
  if (parts.length > 1 && /^[A-Z]/.test(parts[0]!)) names.push(parts[0]!);
  return names;
}

/** The code spans of a markdown file outside fenced blocks, with their line. */
function spansOf(doc: string): Array<{ span: string; where: string; line: string }> {
  const out: Array<{ span: string; where: string; line: string }> = [];
  let fenced = false;
  for (const [i, line] of read(doc).split('\n').entries()) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const [, span] of line.matchAll(/`([^`]+)`/g))
      out.push({ span: span!, where: `${doc}:${i + 1}`, line });
  }
  return out;
}

/** The bare paths of a line (src/x/y.ts written without backticks). */
function barePaths(line: string): string[] {
  return [
    ...line
      .replace(/`[^`]*`/g, '')
      .matchAll(/(?<![\w/.-])((?:src|ui|test|bench|docker|docs|scripts|scenarios)\/[\w./-]*\w)/g),
  ].map((m) => m[1]!);
}

describe('the maps name files and code that exist', () => {
  const MAPS = ['docs/architecture.md', 'docs/perf-budget.md'];

  it('reads paths and names the way the maps write them', () => {
    expect(fileOf('src/delivery/outbox.ts')).toBe('src/delivery/outbox.ts');
    expect(fileOf('outbox.ts')).toBe('outbox.ts');
    expect(fileOf('run/environment.ts')).toBe('run/environment.ts');
    expect(fileOf('src/verify/cases/*.ts')).toBeUndefined();
    expect(namesOf('apply()')).toEqual(['apply']);
    expect(namesOf('#send')).toEqual(['#send']);
    expect(namesOf('HttpSender.send()')).toEqual(['send', 'HttpSender']);
    expect(namesOf('MAX_REDELIVERIES')).toEqual(['MAX_REDELIVERIES']);
    expect(namesOf('responseTimeoutMs')).toEqual(['responseTimeoutMs']);
    expect(namesOf('pending')).toEqual([]);
    expect(declared('createApp')).toBe(true);
    expect(declared('#send')).toBe(true);
    expect(declared('noSuchFunctionAnywhere')).toBe(false);
    // Enough to know the scan reached the map (it names dozens of files and functions).
    const spans = spansOf('docs/architecture.md').map((s) => s.span);
    expect(spans.filter((s) => fileOf(s)).length).toBeGreaterThan(100);
    expect(spans.flatMap(namesOf).length).toBeGreaterThan(20);
  });

  it.each(MAPS)('%s: every file it names exists', (doc) => {
    const missing: string[] = [];
    for (const { span, where, line } of spansOf(doc)) {
      const file = fileOf(span);
      if (!file) continue;
      const found =
        file.includes('/') && TOP.has(file.split('/')[0]!)
          ? existsSync(join(ROOT, file))
          : TRACKED.some((f) => f === file || f.endsWith(`/${file}`));
      if (!found)
        missing.push(`${where}: \`${span}\` names no file of the repository (${line.trim().slice(0, 80)}…)`);
    }
    for (const [i, line] of read(doc).split('\n').entries())
      for (const path of barePaths(line))
        if (!existsSync(join(ROOT, path))) missing.push(`${doc}:${i + 1}: ${path} does not exist`);
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it.each(MAPS)('%s: every function, constant and member it names is declared in the code', (doc) => {
    const missing = spansOf(doc).flatMap(({ span, where }) =>
      namesOf(span)
        .filter((name) => !declared(name))
        .map(
          (name) => `${where}: \`${span}\`: nothing in src/, ui/, test/, bench/ or scripts/ declares ${name}`,
        ),
    );
    expect(missing, missing.join('\n')).toEqual([]);
  });
});

describe('STYLE citations resolve to docs/style.md', () => {
  it('finds a heading of docs/style.md for every STYLE "X" cited in the code and the docs', () => {
    const { ids, headings } = anchorsOf(read('docs/style.md'));
    const files = [...CITING, ...filesUnder('test', ['.ts']).filter((f) => f !== SELF)];
    const broken: string[] = [];
    for (const file of new Set(files)) {
      for (const [i, line] of read(file).split('\n').entries()) {
        for (const [, name] of line.matchAll(/\bSTYLE\s+["“]([^"”\n]+)["”]/g))
          if (!ids.has(slug(name!)))
            broken.push(
              `${file}:${i + 1}: STYLE "${name}" is no heading of docs/style.md (${headings.join(', ')})`,
            );
      }
    }
    expect(broken, broken.join('\n')).toEqual([]);
  });
});

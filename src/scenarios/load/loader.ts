import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { formatPath, InputError } from '../../errors.js';
import { type Scenario, ScenarioSchema } from '../schema/index.js';
import { problemsFrom } from './issues.js';
import { jsonSyntaxError } from './json-syntax.js';
import { positionOf } from './positions.js';
import { acceptedKeysAt } from './shape.js';

/** One thing wrong with a scenario file, located as precisely as the file allows. */
export interface ScenarioProblem {
  file: string;
  line?: number;
  column?: number;
  /** Field path, e.g. `steps[2].advance.by`; `(root)` for the whole file. */
  path: string;
  message: string;
}

/** A scenario file that cannot be run. Category user_input: the CLI exits 2. */
export class ScenarioFileError extends InputError {
  constructor(
    readonly file: string,
    readonly problems: ScenarioProblem[],
  ) {
    super('scenario_invalid', problems.map(formatProblem).join('\n'), { file, problems });
  }
}

/** `file:line:column: path: message`, the shape editors and CI logs link from. */
export function formatProblem(p: ScenarioProblem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.column ?? 1}`;
  return `${where}: ${p.path === '(root)' ? '' : `${p.path}: `}${p.message}`;
}

/**
 * The largest scenario file read (docs/scenarios.md). Scenarios are a few KiB; parsed YAML takes
 * several times its text in memory, so a 200 MB file ended in a V8 heap OOM (exit 134) before any
 * message. Checked with `stat` before the file is read (decision 0127).
 */
export const MAX_SCENARIO_FILE_BYTES = 4 * 1024 * 1024;

/** Reads and validates a scenario file (YAML, or JSON by its .json suffix). */
export async function loadScenarioFile(file: string): Promise<Scenario> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > MAX_SCENARIO_FILE_BYTES)
      throw new ScenarioFileError(file, [
        {
          file,
          path: '(root)',
          message: `the scenario file is ${size} bytes, above the limit of ${MAX_SCENARIO_FILE_BYTES} bytes (4 MiB); a scenario describes users, receivers and steps, not bulk data: split it or generate the data with steps`,
        },
      ]);
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof ScenarioFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code;
    throw new ScenarioFileError(file, [
      {
        file,
        path: '(root)',
        message: `cannot read the scenario file (${reason}); give the path of a .yaml or .json file`,
      },
    ]);
  }
  return resolvePaths(parseScenario(text, file), file);
}

/**
 * Relative paths in a scenario (`settings.caFile`) are relative to the scenario file's folder, so a
 * scenario runs the same from any working directory (docs/scenarios.md).
 */
function resolvePaths(scenario: Scenario, file: string): Scenario {
  const caFile = scenario.settings.caFile;
  if (caFile === undefined || isAbsolute(caFile)) return scenario;
  return { ...scenario, settings: { ...scenario.settings, caFile: resolve(dirname(file), caFile) } };
}

/** Validates scenario text; `file` names it in messages and picks the syntax (JSON for .json). */
export function parseScenario(text: string, file = '<scenario>'): Scenario {
  const lines = new LineCounter();
  const syntax = file.endsWith('.json') ? 'JSON' : 'YAML';
  if (syntax === 'JSON') {
    const bad = jsonSyntaxError(text);
    if (bad)
      throw new ScenarioFileError(file, [
        { file, ...bad, path: '(root)', message: `not valid JSON: ${bad.message}` },
      ]);
  }
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioFileError(
      file,
      doc.errors.map((e) => ({
        file,
        line: e.linePos?.[0].line,
        column: e.linePos?.[0].col,
        path: '(root)',
        message: `not valid ${syntax}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
      })),
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new ScenarioFileError(file, [
      { file, path: '(root)', message: `not valid ${syntax}: ${(err as Error).message}` },
    ]);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const found =
      data === null || data === undefined
        ? 'an empty file'
        : Array.isArray(data)
          ? 'a list'
          : JSON.stringify(data);
    throw new ScenarioFileError(file, [
      {
        file,
        line: 1,
        column: 1,
        path: '(root)',
        message: `expected a mapping with at least name and steps, found ${found}`,
      },
    ]);
  }
  const parsed = ScenarioSchema.safeParse(data);
  if (parsed.success) return parsed.data as Scenario;
  const keysAt = (path: readonly PropertyKey[]) => acceptedKeysAt(ScenarioSchema, path);
  const problems = problemsFrom(parsed.error.issues, data, keysAt).map((p): ScenarioProblem => {
    const at =
      p.key === undefined
        ? positionOf(doc, lines, p.path)
        : positionOf(doc, lines, p.path.slice(0, -1), p.key);
    return { file, line: at?.line, column: at?.column, path: formatPath(p.path), message: p.message };
  });
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  throw new ScenarioFileError(file, problems);
}

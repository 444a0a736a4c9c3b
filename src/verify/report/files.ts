/** The report files: `--json` (the report object itself) and `--junit` (one testcase per case). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError } from '../../errors.js';
import { xmlEscape as esc, junitSeconds as sec } from '../../scenarios/report/xml.js';
import type { VerifyReport } from '../types.js';

/** The JSON report (`--json`, `POST /__admin/verify`). */
export function verifyJson(report: VerifyReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * JUnit XML: one testsuite, one testcase per case; a failure's text is its reason and evidence,
 * a skipped case is `<skipped/>`, a warned one passes with the warning in `<system-out>`.
 */
export function verifyJunit(report: VerifyReport, timestamp = new Date()): string {
  const cases = report.cases.map((r) => {
    const open = `    <testcase classname="reportbo-emulator verify" name="${esc(r.id)}: ${esc(r.title)}" time="${sec(r.durationMs)}"`;
    if (r.status === 'passed') return `${open}/>`;
    if (r.status === 'skipped')
      return `${open}>\n      <skipped message="${esc(r.reason)}"/>\n    </testcase>`;
    if (r.status === 'warned')
      return `${open}>\n      <system-out>${esc(`warning: ${r.reason}\nfix: ${r.fix}`)}</system-out>\n    </testcase>`;
    const text = [
      r.reason,
      ...r.evidence.flatMap((e) => [`sent: ${e.sent}`, `received: ${e.received}`]),
      `rule: ${r.rule}`,
      `fix: ${r.fix}`,
    ].join('\n');
    return `${open}>\n      <failure message="${esc(r.reason)}" type="${esc(r.id)}">${esc(text)}</failure>\n    </testcase>`;
  });
  const attrs = `tests="${report.cases.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}" time="${sec(report.durationMs)}"`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="reportbo-emulator verify" ${attrs}>\n` +
    `  <testsuite name="verify ${esc(report.receiver)}" ${attrs} timestamp="${timestamp.toISOString()}">\n` +
    `${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`
  );
}

/** Writes a report file, creating its parent folders; a failure is an InputError naming the flag. */
export async function writeReport(flag: string, file: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new InputError(
      'report_unwritable',
      `${flag} ${file}: cannot write the report (${e.code ?? e.message}).`,
      {
        path: flag,
      },
    );
  }
}

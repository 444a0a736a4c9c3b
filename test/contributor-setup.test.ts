/**
 * A contributor's first hour (issue 39 §6): the root's `npm ci` alone installs what `npm run
 * typecheck`, `npm run lint` and `npm test` need, the Testcontainers module included (an npm
 * workspace), and no dev dependency reports the install anywhere (@scarf/scarf, which
 * @asyncapi/parser's linter brings, is turned off by the root's `scarfSettings`).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';
import { TESTCONTAINERS_DIR, testcontainersMissing } from './helpers/packed.js';

const requireFromRoot = createRequire(join(ROOT, 'package.json'));

describe("the root's npm ci", () => {
  it('installs the Testcontainers module as a workspace, with testcontainers and the emulator linked', () => {
    expect(testcontainersMissing()).toBeUndefined();
    const fromModule = createRequire(join(TESTCONTAINERS_DIR, 'package.json'));
    expect(fromModule.resolve('reportbo-emulator/package.json')).toBe(join(ROOT, 'package.json'));
  });

  it('leaves install telemetry off: scarf refuses to report for this checkout', async () => {
    const report = join(requireFromRoot.resolve('@scarf/scarf/package.json'), '../report.js');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [report], {
      cwd: join(report, '..'),
      env: { ...process.env, INIT_CWD: ROOT, SCARF_VERBOSE: 'true', SCARF_ANALYTICS: '', DO_NOT_TRACK: '' },
      timeout: 120_000,
    });
    expect(`${stdout}${stderr}`).toContain(
      'Scarf has been disabled via a package.json in the dependency chain',
    );
  });
});

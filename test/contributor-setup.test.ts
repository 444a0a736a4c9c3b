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
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { TESTCONTAINERS_DIR, testcontainersMissing } from './helpers/packed.js';

const requireFromRoot = createRequire(join(ROOT, 'package.json'));

describe("the root's npm ci", () => {
  it('installs the Testcontainers module as a workspace, with testcontainers and the emulator linked', () => {
    expect(testcontainersMissing()).toBeUndefined();
    const fromModule = createRequire(join(TESTCONTAINERS_DIR, 'package.json'));
    expect(fromModule.resolve('reportbo-emulator/package.json')).toBe(join(ROOT, 'package.json'));
  });

  it("leaves install telemetry off: scarf's own check refuses to report for this checkout", async () => {
    // Scarf's postinstall lists the tree with `npm ls` (killed after 3 s, which a loaded machine
    // passes, and then it reports nothing either), then decides with processDependencyTreeOutput:
    // the same decision, fed the same listing taken without that time limit.
    const { stdout } = await promisify(execFile)('npm', ['ls', '@scarf/scarf', '--json', '--long'], {
      cwd: ROOT,
      timeout: WAIT_DEADLINE_MS,
      maxBuffer: 1024 * 1024 * 1024,
    });
    const scarf = requireFromRoot('@scarf/scarf/report.js') as {
      processDependencyTreeOutput(
        resolve: (v: unknown) => void,
        reject: (e: Error) => void,
      ): (error: Error | null, stdout: string, stderr: string) => void;
    };
    const decision = await new Promise((resolve, reject) =>
      scarf.processDependencyTreeOutput(resolve, reject)(null, stdout, ''),
    ).then(
      () => 'would report',
      (err: Error) => err.message,
    );
    expect(decision).toBe('Scarf has been disabled via a package.json in the dependency chain.');
  });
});

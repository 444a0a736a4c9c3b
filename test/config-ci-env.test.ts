import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_SETTINGS } from '../src/config/load.js';
import { SERVE_OPTIONS } from '../src/config/options.js';
import { ROOT } from './helpers/cli.js';

// Decision 0208: `serve` refuses a REPORTBO_ variable that names no setting. A variable that CI sets
// for the test suite reaches every serve the suite starts, so each must be a setting or one the
// emulator knows is not (an unlisted one failed every CLI test of a CI run).
describe('the environment .ci/run and the workflows set', () => {
  it('holds only REPORTBO_ variables that serve accepts', () => {
    const workflows = join(ROOT, '.github/workflows');
    const texts = [
      readFileSync(join(ROOT, '.ci/run'), 'utf8'),
      ...readdirSync(workflows).map((f) => readFileSync(join(workflows, f), 'utf8')),
    ];
    const set = new Set(
      texts.flatMap((t) =>
        [...t.matchAll(/(?:export |^\s+)(REPORTBO_[A-Z0-9_]+)(?:=|:)/gm)].map((m) => m[1]!),
      ),
    );
    expect(set.size).toBeGreaterThan(0);
    const settings = new Set(SERVE_OPTIONS.flatMap((o) => o.env));
    expect([...set].filter((name) => !settings.has(name) && !NOT_SETTINGS.has(name))).toEqual([]);
  });
});

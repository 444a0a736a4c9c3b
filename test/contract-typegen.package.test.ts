/**
 * docs/contract.md "TypeScript types for a receiver", run as written: openapi-typescript (installed
 * from npm into a throwaway project, with its TypeScript 5 peer) on docs/notification.openapi.json
 * and json-schema-to-typescript on docs/notification.schema.json, then the documented receiver and a
 * second one using the json2ts interface are type-checked with `tsc --strict`. Misuses marked
 * `@ts-expect-error` prove the generated types are not `any`: an unneeded marker fails the check.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const DOC = readFileSync(join(ROOT, 'docs/contract.md'), 'utf8');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** The shell lines of the doc's ```sh blocks that run a generator. */
const generatorLines = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1]!.split('\n'))
  .filter((line) => line.startsWith('npx '));
const receiverSource = /<!-- typegen: (\S+) -->\n```ts\n([\s\S]*?)```/.exec(DOC);

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'typegen-'));
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'receiver', private: true, type: 'module' }),
  );
  // The install line of the doc for openapi-typescript; json2ts is this repository's devDependency.
  await run(
    'npm',
    ['install', '-D', 'openapi-typescript@7', 'typescript@5', '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: project, timeout: 240_000 },
  );
  await run('ln', [
    '-s',
    join(ROOT, 'node_modules/.bin/json2ts'),
    join(project, 'node_modules/.bin/json2ts'),
  ]);
  // The package's docs/ where an installed package has them (after npm install, which would prune them).
  await mkdir(join(project, 'node_modules/reportbo-emulator'), { recursive: true });
  await run('cp', ['-r', join(ROOT, 'docs'), join(project, 'node_modules/reportbo-emulator/docs')]);
  await mkdir(join(project, 'src'));
}, 300_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('generating receiver types from the published contract', () => {
  it('runs the documented generators and type-checks the documented receiver with strict tsc', async () => {
    expect(generatorLines).toHaveLength(2);
    for (const line of generatorLines) {
      const [, tool, ...args] = line.split(' ');
      await run(join(project, 'node_modules/.bin', tool!), args, { cwd: project, timeout: 120_000 });
    }
    const webhook = readFileSync(join(project, 'src/reportbo-webhook.ts'), 'utf8');
    expect(webhook).toContain('export interface webhooks');
    expect(webhook).toContain('reservationNotification');
    const json2ts = readFileSync(join(project, 'src/reportbo-notification.d.ts'), 'utf8');
    expect(json2ts).toContain('export interface ReportBONotificationBody');

    expect(receiverSource, 'docs/contract.md has a <!-- typegen: FILE --> block').not.toBeNull();
    await writeFile(join(project, receiverSource![1]!), receiverSource![2]!);
    await writeFile(
      join(project, 'src/misuse.ts'),
      `import type { components } from './reportbo-webhook.js';
import type { ReportBONotificationBody } from './reportbo-notification.js';
type Body = components['schemas']['NotificationBody'];
export function status(body: ReportBONotificationBody): Body['Reservation']['BookingStatus'] {
  return body.Reservation.BookingStatus;
}
// @ts-expect-error not a BookingStatus of the contract
export const wrong: Body['Reservation']['BookingStatus'] = 'Cancelled';
// @ts-expect-error the contract has no such member
export const missing = (body: ReportBONotificationBody) => body.Reservation.BookingNo;
// @ts-expect-error the body is a required member
export const empty: Body = { FileType: 'Air' };
`,
    );
    const tsc = await run(
      TSC,
      [
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        receiverSource![1]!,
        'src/misuse.ts',
      ],
      { cwd: project },
    ).catch((err: { stdout: string; stderr: string }) => ({
      stdout: err.stdout,
      stderr: err.stderr,
      failed: true,
    }));
    expect(tsc).not.toHaveProperty('failed');
  });
});

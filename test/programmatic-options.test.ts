// startEmulator's file options (config, scenario, urlFile) and its refusal of keys it does not know,
// through the package entry as a user's suite loads it (issue 27 §4).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StartEmulatorOptions, type StartedEmulator, startEmulator } from 'reportbo-emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testCa } from './helpers/tls.js';

let dir: string;
const started: StartedEmulator[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'start-options-'));
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.stop()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function start(options: StartEmulatorOptions): Promise<StartedEmulator> {
  const emulator = await startEmulator(options);
  started.push(emulator);
  return emulator;
}

/** A 1.7 JSON login's answer: `IDWeb` for a known user, `TransactionCode` 1200 for an unknown one. */
async function login(emulator: StartedEmulator, username: string, password: string) {
  const res = await fetch(`${emulator.baseUrls['1.7']}/AuthService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: username, Password: password }),
  });
  return (await res.json()) as { IDWeb?: number; TransactionCode: string | null };
}

describe('startEmulator options', () => {
  it('loads the users, credentials and settings of a YAML config file, as serve --config does', async () => {
    const config = join(dir, 'emulator.yaml');
    await writeFile(
      config,
      [
        'settings:',
        '  seed: 4242',
        'users:',
        '  - { username: yaml-user, password: s3cret, idWeb: 2024, webDescription: From YAML, versions: ["1.7"] }',
        'credentials:',
        '  - { id: from-file, apiKey: k-file, url: "https://receiver.invalid/hook" }',
      ].join('\n'),
    );
    const emulator = await start({ config });
    expect(await login(emulator, 'yaml-user', 's3cret')).toMatchObject({
      IDWeb: 2024,
      TransactionCode: null,
    });
    expect((await emulator.client.listCredentials()).map((c) => c.id)).toEqual(['from-file']);
    const effective = (await (await fetch(`${emulator.url}/__admin/config`)).json()) as { seed: number };
    expect(effective.seed).toBe(4242);
  });

  it('lets its own users replace the config file list, as a flag outranks the file', async () => {
    const config = join(dir, 'replaced.json');
    await writeFile(
      config,
      JSON.stringify({
        users: [{ username: 'file-user', password: 'p', idWeb: 1, webDescription: 'F', versions: ['1.7'] }],
      }),
    );
    const emulator = await start({
      config,
      users: [{ username: 'option-user', password: 'p', idWeb: 2, webDescription: 'O', versions: ['1.7'] }],
    });
    expect((await login(emulator, 'option-user', 'p')).IDWeb).toBe(2);
    expect((await login(emulator, 'file-user', 'p')).TransactionCode).toBe('1200');
  });

  it("names a config file's bad setting by its place in the file, as serve does", async () => {
    const config = join(dir, 'bad.yaml');
    await writeFile(config, 'settings:\n  hourMs: 5\n');
    await expect(startEmulator({ config })).rejects.toThrow(`settings.hourMs in ${config}`);
    await expect(startEmulator({ config: join(dir, 'absent.yaml') })).rejects.toThrow(
      `${join(dir, 'absent.yaml')}: cannot read it (no such file)`,
    );
  });

  it("loads a scenario file's users and seed, as serve --scenario does", async () => {
    const scenario = new URL('../scenarios/08-gettoken-migration.yaml', import.meta.url).pathname;
    const emulator = await start({ scenario });
    expect((await login(emulator, 'migrated', 's3cret')).IDWeb).toBe(1002);
    const effective = (await (await fetch(`${emulator.url}/__admin/config`)).json()) as { seed: number };
    expect(effective.seed).toBe(1);
  });

  it('writes the listening URL to urlFile', async () => {
    const urlFile = join(dir, 'url.txt');
    const emulator = await start({ urlFile });
    expect(await readFile(urlFile, 'utf8')).toBe(`${emulator.url}\n`);
  });

  it('refuses an unknown key, naming the closest valid one', async () => {
    const misspelt = { hourMS: 1000 } as unknown as StartEmulatorOptions;
    await expect(startEmulator(misspelt)).rejects.toMatchObject({
      code: 'unknown_option',
      message: expect.stringContaining('unknown option "hourMS" (did you mean "hourMs"?)'),
    });
    const farOff = { verbosity: 3 } as unknown as StartEmulatorOptions;
    await expect(startEmulator(farOff)).rejects.toThrow('unknown option "verbosity"');
  });

  it('trusts a CA given as caPem', async () => {
    const emulator = await start({ caPem: testCa().certPem });
    const trusted = await emulator.client.listTrusted();
    expect(trusted.map((c) => c.source)).toEqual(['ca-pem']);
  });
});

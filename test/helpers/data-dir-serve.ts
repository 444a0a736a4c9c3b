import { existsSync, mkdtempSync, readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli.js';
import { CLOCK_START } from './clock.js';
import { WAIT_DEADLINE_MS, waitExpired } from './deadline.js';
import { type Started, start } from './processes.js';

/**
 * The real CLI's `serve --port 0 …args --data-dir DIR` (from dist/: `npm run build` first), killed
 * with SIGKILL as a crash would and started again on the same data dir. Ready when its `--url-file`
 * (beside the data dir) names its URL, whatever the log level. The test file stops a running one
 * after all its tests (see `start`).
 */
export class DataDirServe {
  /** The running emulator's base URL (a new port after each start). */
  url = '';
  /** How many times it was killed. */
  restarts = 0;
  /** Real milliseconds from each spawn to ready (reported by the crash test, never asserted). */
  readonly startMs: number[] = [];
  readonly #urlFile: string;
  #running: Started | undefined;

  constructor(
    readonly dataDir: string,
    private readonly args: string[] = [],
  ) {
    this.#urlFile = join(dataDir, '..', 'url');
  }

  /** One on a fresh data dir under a temporary folder named `prefix`: manual clock at CLOCK_START, plain HTTP receivers allowed. */
  static manual(prefix: string): DataDirServe {
    const data = join(mkdtempSync(join(tmpdir(), prefix)), 'data');
    return new DataDirServe(data, ['--clock', 'manual', '--clock-start', CLOCK_START, '--allow-http']);
  }

  /** Starts it on the data dir and resolves with its URL once it is ready. */
  async start(timeoutMs = WAIT_DEADLINE_MS): Promise<string> {
    if (existsSync(this.#urlFile)) unlinkSync(this.#urlFile);
    const began = performance.now();
    const running = start(process.execPath, [
      BIN,
      'serve',
      '--port',
      '0',
      ...this.args,
      '--data-dir',
      this.dataDir,
      '--url-file',
      this.#urlFile,
    ]);
    this.#running = running;
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(this.#urlFile) || readFileSync(this.#urlFile, 'utf8').trim() === '') {
      if (running.child.exitCode !== null)
        throw new Error(`the emulator exited with ${running.child.exitCode}:\n${this.output()}`);
      if (Date.now() > deadline)
        throw waitExpired(`the emulator on ${this.dataDir} to write its URL`, timeoutMs, this.output());
      await new Promise((r) => setTimeout(r, 20));
    }
    this.url = readFileSync(this.#urlFile, 'utf8').trim();
    this.startMs.push(performance.now() - began);
    return this.url;
  }

  /** SIGKILL, as a crash: nothing is flushed or closed. Resolves once it exited; a stopped one is left alone. */
  async kill(): Promise<void> {
    const running = this.#running;
    if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
    running.child.kill('SIGKILL');
    await running.exited();
    this.restarts++;
  }

  /** SIGTERM, as a user stops it; resolves with its exit code. */
  async stop(): Promise<number | null> {
    const running = this.#running;
    if (!running) return null;
    running.child.kill('SIGTERM');
    return running.exited();
  }

  /** What the running (or last) process printed, its last 20,000 characters. */
  output(): string {
    return (this.#running?.output() ?? '').slice(-20_000);
  }
}

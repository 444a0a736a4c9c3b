/**
 * Runs the team's harness once: `sh -c <exec>` in its own process group with the case's
 * environment, its stdout read line by line as it comes (each line stamped on arrival, for the
 * expiry check), stderr kept to its end; ended with the whole group at the case's bound.
 */
import { spawn } from 'node:child_process';
import type { HarnessOutcome } from './types.js';

/** Lines of stdout kept (a harness asked for 20 tokens prints 20; more is its own bug). */
const MAX_LINES = 100;
/** Longest stdout line kept; a token is 32 characters, an error message a few hundred. */
const MAX_LINE_CHARS = 1000;
/** The end of stderr kept: where the error an SDK reports usually is. */
const STDERR_TAIL_BYTES = 2048;
/** After the harness exits, how long its stdout may stay open (a child it left behind) before the group is ended. */
const CLOSE_GRACE_MS = 500;
/** After that group is ended, how long to wait for the pipe to close before the run ends without it. */
const CLOSE_FALLBACK_MS = 30_000;

/** A harness run as the cases judge it: the outcome plus each line's arrival time. */
export interface HarnessRun extends HarnessOutcome {
  /** Wall time (ms since the epoch) each kept stdout line arrived. */
  arrivedAtMs: number[];
  /** Lines printed beyond MAX_LINES (not kept). */
  droppedLines: number;
  /** The shell could not start the command (127: not found, 126: not executable). */
  notRunnable?: string;
}

/** Runs `exec` with `env` added to this process's environment; ends it after `boundMs`. */
export function runHarness(exec: string, env: Record<string, string>, boundMs: number): Promise<HarnessRun> {
  const started = Date.now();
  const run: HarnessRun = {
    exitCode: null,
    signal: null,
    durationMs: 0,
    stdout: [],
    stderr: '',
    arrivedAtMs: [],
    droppedLines: 0,
  };
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('sh', ['-c', exec], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group: the bound ends the harness and whatever it started
      });
    } catch (err) {
      run.notRunnable = `cannot start sh: ${(err as Error).message}`;
      resolve(run);
      return;
    }
    let partial = '';
    let stderr = Buffer.alloc(0);
    let finished = false;
    const endGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const keepLine = (line: string, at: number) => {
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (run.stdout.length >= MAX_LINES) {
        run.droppedLines++;
        return;
      }
      run.stdout.push(text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text);
      run.arrivedAtMs.push(at);
    };
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const at = Date.now();
      partial += chunk;
      for (let end = partial.indexOf('\n'); end >= 0; end = partial.indexOf('\n')) {
        keepLine(partial.slice(0, end), at);
        partial = partial.slice(end + 1);
      }
      if (partial.length > MAX_LINE_CHARS * 4) {
        keepLine(partial, at);
        partial = '';
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES * 2) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    const bound = setTimeout(() => {
      run.killedAfterMs = Date.now() - started;
      endGroup();
    }, boundMs);
    let grace: NodeJS.Timeout | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(bound);
      clearTimeout(grace);
      endGroup(); // nothing the harness started outlives its case
      if (partial !== '') keepLine(partial, Date.now());
      const tail = stderr.subarray(Math.max(0, stderr.length - STDERR_TAIL_BYTES)).toString('utf8');
      run.stderr = tail.trimEnd();
      run.durationMs = Date.now() - started;
      if (run.exitCode === 127 || run.exitCode === 126) {
        run.notRunnable = `${run.exitCode === 127 ? 'command not found' : 'not executable'} (sh exit ${run.exitCode}${run.stderr ? `: ${lastLine(run.stderr)}` : ''})`;
      }
      resolve(run);
    };
    child.on('error', (err) => {
      run.notRunnable = `cannot start sh: ${err.message}`;
      finish();
    });
    child.on('exit', (code, signal) => {
      run.exitCode = code;
      run.signal = signal;
      if (run.killedAfterMs !== undefined) run.exitCode = null;
      // A child the harness left behind may hold stdout open: after the grace its group is ended,
      // which closes the pipe, and 'close' still comes after every byte already written was read (on
      // a busy machine that can be well after the exit). Only a pipe that stays open past that ends it.
      grace = setTimeout(() => {
        endGroup();
        grace = setTimeout(finish, CLOSE_FALLBACK_MS);
      }, CLOSE_GRACE_MS);
    });
    child.on('close', finish);
  });
}

/** The last non-empty line of a text. */
export function lastLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return (lines.at(-1) ?? '').trim();
}

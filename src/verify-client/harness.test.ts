import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WAIT_DEADLINE_MS } from '../../test/helpers/deadline.js';
import { runHarness } from './harness.js';

/** Whether a process with this pid still runs (a zombie waiting to be reaped does not). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('runHarness', () => {
  it('hands the harness its environment and keeps each stdout line with the time it arrived', async () => {
    const before = Date.now();
    const run = await runHarness(
      'echo "$A"; sleep 0.2; printf "second\\r\\nlast"; echo oops >&2; exit 3',
      { A: 'first' },
      WAIT_DEADLINE_MS,
    );
    expect(run.stdout).toEqual(['first', 'second', 'last']);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toBe('oops');
    expect(run.arrivedAtMs[0]).toBeGreaterThanOrEqual(before);
    expect(run.arrivedAtMs[1]! - run.arrivedAtMs[0]!).toBeGreaterThanOrEqual(150);
    expect(run.killedAfterMs).toBeUndefined();
  });

  it('ends the harness and everything it started at the bound, and says when', async () => {
    const run = await runHarness('sleep 30 & echo $!; wait', {}, 1000);
    expect(run.killedAfterMs).toBeGreaterThanOrEqual(1000);
    expect(run.exitCode).toBeNull();
    const child = Number(run.stdout[0]);
    await expect.poll(() => alive(child)).toBe(false);
  });

  it('ends what a harness left running when it exited', async () => {
    // The background sleep keeps stdout open; the kit does not wait for it beyond a short grace.
    const run = await runHarness('sleep 30 & echo $!', {}, WAIT_DEADLINE_MS);
    expect(run.exitCode).toBe(0);
    expect(run.killedAfterMs).toBeUndefined();
    await expect.poll(() => alive(Number(run.stdout[0]))).toBe(false);
  });

  it('keeps at most 100 lines, each at most 1000 characters, and the end of stderr', async () => {
    const run = await runHarness(
      `for i in $(seq 1 150); do echo "line $i"; done; head -c 3000 /dev/zero | tr '\\0' x; echo; head -c 5000 /dev/zero | tr '\\0' e >&2`,
      {},
      WAIT_DEADLINE_MS,
    );
    expect(run.stdout).toHaveLength(100);
    expect(run.droppedLines).toBe(51);
    expect(run.stderr).toHaveLength(2048);
  });

  it('says a command sh cannot find is not runnable, with what sh said', async () => {
    const run = await runHarness('no-such-command-for-the-kit', {}, WAIT_DEADLINE_MS);
    expect(run.notRunnable).toMatch(/^command not found \(sh exit 127: .*no-such-command-for-the-kit/);
  });
});

it('the machine has sh, seq and head (the tests above use them)', () => {
  expect(execFileSync('sh', ['-c', 'seq 1 2 | head -c 3']).toString()).toBe('1\n2');
});

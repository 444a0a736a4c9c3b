import { describe, expect, it } from 'vitest';
import { formatReportedCase, formatTally, junitCaseOf, type ReportedCase } from './case-report.js';

const failed: ReportedCase = {
  id: 'reuses-valid-token',
  title: 'asked for 20 tokens in a row, calls GetAccessToken once',
  status: 'failed',
  reason: 'no cache: called GetAccessToken 20 times',
  evidence: [{ sent: 'asked for 20 tokens', received: '20 calls' }],
  rule: 'spec "Authentication" 2',
  fix: 'Keep the token.',
  durationMs: 1500,
};

describe('a reported case', () => {
  it('is one line when it passed, and under a failure what was sent, what came back, the rule and the fix', () => {
    expect(formatReportedCase({ ...failed, status: 'passed', reason: '1 call' })).toBe(
      '  ✓ reuses-valid-token — 1 call\n',
    );
    expect(formatReportedCase(failed).split('\n')).toEqual([
      '  ✗ reuses-valid-token — no cache: called GetAccessToken 20 times',
      '      sent:     asked for 20 tokens',
      '      received: 20 calls',
      '      rule:     spec "Authentication" 2',
      '      fix:      Keep the token.',
      '',
    ]);
    expect(formatReportedCase({ ...failed, status: 'warned' })).not.toContain('rule:');
  });

  it('is a JUnit failure whose message is the reason and whose type is the case id', () => {
    const c = junitCaseOf('kit', failed, 'calls (20):');
    expect(c.failure).toEqual({
      message: failed.reason,
      type: 'reuses-valid-token',
      text: `${failed.reason}\nsent: asked for 20 tokens\nreceived: 20 calls\nrule: spec "Authentication" 2\nfix: Keep the token.`,
    });
    expect(c.systemOut).toBe('calls (20):');
    expect(junitCaseOf('kit', { ...failed, status: 'skipped', reason: 'API 1.6' }).skipped).toEqual({
      message: 'API 1.6',
    });
  });

  it('counts into one summary line', () => {
    const tally = { cases: [failed, failed], passed: 1, failed: 1, warned: 0, skipped: 0, durationMs: 7400 };
    expect(formatTally(tally)).toBe('\nFAILED: 2 cases: 1 passed, 1 failed, 0 warned, 0 skipped (7.4 s)\n');
  });
});

import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../types.js';
import { consoleProgress, formatCase, formatSummary } from './console.js';

const result = (status: CaseResult['status']): CaseResult => ({
  id: 'acknowledges-issue',
  title: 'acknowledges a valid Issue with exactly 200',
  status,
  reason: status === 'failed' ? 'the Issue: HTTP 202' : 'answered 200 in 3 ms',
  evidence: [{ sent: 'POST https://r.example/hook: Issued', received: 'HTTP 202 after 3 ms' }],
  rule: 'spec "Endpoints 1" rule 2',
  fix: 'Answer exactly 200.',
  durationMs: 5,
});

describe('the verify console report', () => {
  it('shows the running case on a terminal and replaces it by the result line', () => {
    let out = '';
    const progress = consoleProgress((t) => {
      out += t;
    }, true);
    progress.caseStart!('acknowledges-issue', 'title', 2, 13);
    expect(out).toBe('  … [2/13] acknowledges-issue');
    progress.caseEnd!(result('passed'), 2, 13);
    expect(out).toBe('  … [2/13] acknowledges-issue\r\x1b[K  ✓ acknowledges-issue — answered 200 in 3 ms\n');
  });

  it('writes only result lines in a log, and under a failure what was sent, what came back, the rule and the fix', () => {
    let out = '';
    const progress = consoleProgress((t) => {
      out += t;
    }, false);
    progress.caseStart!('acknowledges-issue', 'title', 2, 13);
    progress.caseEnd!(result('failed'), 2, 13);
    expect(out).toBe(formatCase(result('failed')));
    expect(out.split('\n')).toEqual([
      '  ✗ acknowledges-issue — the Issue: HTTP 202',
      '      sent:     POST https://r.example/hook: Issued',
      '      received: HTTP 202 after 3 ms',
      '      rule:     spec "Endpoints 1" rule 2',
      '      fix:      Answer exactly 200.',
      '',
    ]);
  });

  it('lists under a warning the requests it mentions (e.g. the slowest answers), then the fix', () => {
    expect(formatCase(result('warned')).split('\n')).toEqual([
      '  ! acknowledges-issue — answered 200 in 3 ms',
      '      sent:     POST https://r.example/hook: Issued',
      '      received: HTTP 202 after 3 ms',
      '      fix:      Answer exactly 200.',
      '',
    ]);
  });

  it('names each shared cause once, with what to fix first, before the summary line', () => {
    const out = formatSummary({
      receiver: 'https://r.example/hook',
      passed: 0,
      failed: 2,
      warned: 0,
      skipped: 0,
      cases: [result('failed'), { ...result('failed'), id: 'accepts-minimal-body' }],
      causes: [
        {
          cause: 'api-key',
          summary: 'every notification with your key was answered 401 (5 of 5)',
          fixFirst: 'Check --api-key.',
          cases: ['acknowledges-issue', 'accepts-minimal-body'],
        },
      ],
      seed: 1,
      probeDeadlineMs: 10000,
      responseTimeoutMs: 30000,
      durationMs: 1200,
    });
    expect(out).toBe(
      '\n  CAUSE api-key — every notification with your key was answered 401 (5 of 5)\n' +
        '      fix first: Check --api-key.\n' +
        '      explains:  acknowledges-issue, accepts-minimal-body\n' +
        '\nFAILED: 2 cases: 0 passed, 2 failed, 0 warned, 0 skipped (1.2 s)\n',
    );
  });
});

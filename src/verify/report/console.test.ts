import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../types.js';
import { consoleProgress, formatCase } from './console.js';

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
});

import { describe, expect, it } from 'vitest';
import { sharedScope } from './scope.js';

const SUFFIX = '.run-abc123';

describe('sharedScope (run --target)', () => {
  it('maps scenario credential ids to ids of the run and back, within the 64-character limit', () => {
    const long = 'x'.repeat(70);
    const scope = sharedScope({
      credentialIds: ['main', long, `${long}y`],
      suffix: SUFFIX,
      notificationsAfter: 0,
      requestsAfter: 0,
    });
    expect(scope.credentialId('main')).toBe('main.run-abc123');
    const ids = [long, `${long}y`].map((id) => scope.credentialId(id));
    expect(new Set(ids).size).toBe(2);
    for (const [i, id] of ids.entries()) {
      expect(id.length).toBeLessThanOrEqual(64);
      expect(id.endsWith(SUFFIX)).toBe(true);
      expect(scope.scenarioCredentialId(id)).toBe([long, `${long}y`][i]);
    }
    expect(scope.scenarioCredentialId('someone-else')).toBe('someone-else');
  });

  it('sees only notifications to its credentials, and journal entries after its start', () => {
    const scope = sharedScope({
      credentialIds: ['main'],
      suffix: SUFFIX,
      notificationsAfter: 5,
      requestsAfter: 7,
    });
    const notifications = [
      { id: 'n-000003', credentialId: 'main' },
      { id: 'n-000009', credentialId: 'main.run-abc123' },
      { id: 'n-000010', credentialId: 'catch-all' },
    ];
    expect(scope.ownNotifications(notifications).map((n) => n.id)).toEqual(['n-000009']);
    expect(scope.ownRequests([{ id: 'r-000007' }, { id: 'r-000008' }]).map((r) => r.id)).toEqual([
      'r-000008',
    ]);
  });

  it('without credentials of its own, sees the notifications created after its start', () => {
    const scope = sharedScope({ credentialIds: [], suffix: SUFFIX, notificationsAfter: 5, requestsAfter: 0 });
    const list = [
      { id: 'n-000005', credentialId: 'a' },
      { id: 'n-000006', credentialId: 'b' },
    ];
    expect(scope.ownNotifications(list).map((n) => n.id)).toEqual(['n-000006']);
  });
});

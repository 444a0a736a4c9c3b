// @ts-check
// An attempt on a notification's timeline: its outcome, both clocks, what changed since the attempt
// before it, and the receiver's answer (headers and the first 4 KiB of the body).

import { fullTime, h, isOk, outcomeText, prettyJson, shortTime } from './dom.js';

/** @typedef {import('./dom.js').Attempt} Attempt */

/**
 * What differs between two answers of the receiver, in words ("status 500 → 200; header retry-after
 * removed; body changed"), or that nothing did.
 * @param {Attempt} before
 * @param {Attempt} a
 */
export function answerChanges(before, a) {
  const changes = [];
  if (outcomeText(before) !== outcomeText(a))
    changes.push(`status ${outcomeText(before)} → ${outcomeText(a)}`);
  const was = before.responseHeaders ?? {};
  const now = a.responseHeaders ?? {};
  const added = Object.keys(now).filter((k) => !(k in was));
  const removed = Object.keys(was).filter((k) => !(k in now));
  // `date` changes with every answer; naming it would hide the changes that matter.
  const changed = Object.keys(now).filter((k) => k in was && k !== 'date' && was[k] !== now[k]);
  if (added.length) changes.push(`header${added.length > 1 ? 's' : ''} ${added.join(', ')} added`);
  if (removed.length) changes.push(`header${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`);
  if (changed.length) changes.push(`header${changed.length > 1 ? 's' : ''} ${changed.join(', ')} changed`);
  if ((before.responseBody ?? '') !== (a.responseBody ?? '')) changes.push('body changed');
  return changes.length ? changes.join('; ') : 'same answer';
}

/** What started an attempt, in words. @param {Pick<Attempt, 'trigger' | 'batchAt'>} a */
export const triggerText = (a) =>
  a.trigger === 'first'
    ? 'first attempt'
    : a.trigger === 'batch'
      ? `batch ${shortTime(a.batchAt)}`
      : 'retry now';

/**
 * @param {Attempt} a
 * @param {Attempt | undefined} before
 * @param {number} gzipBytes
 */
export function renderAttempt(a, before, gzipBytes) {
  const trigger = triggerText(a);
  const headers = Object.entries(a.responseHeaders ?? {});
  return h(
    'li',
    { class: isOk(a) ? 'ok' : '', 'data-number': a.number },
    h(
      'div',
      null,
      h('strong', null, `#${a.number} `),
      h('span', { class: isOk(a) ? 'ok-text' : 'fail-text' }, outcomeText(a)),
      ` in ${a.durationMs} ms · ${trigger}`,
    ),
    h('div', { class: 'when' }, `emulator ${fullTime(a.startedAt)} · wall ${fullTime(a.startedAtWall)}`),
    h('div', null, a.message),
    a.outageId
      ? h('div', { class: 'muted outage' }, `Failed by outage ${a.outageId} without being sent.`)
      : null,
    before
      ? h(
          'div',
          { class: 'changes muted' },
          `Since #${before.number}: request identical (the same ${gzipBytes} gzip bytes and headers); answer: ${answerChanges(before, a)}`,
        )
      : null,
    headers.length || a.responseBody
      ? h(
          'details',
          { class: 'answer' },
          h(
            'summary',
            null,
            `Receiver's answer: ${headers.length} headers, ${a.responseBody?.length ?? 0} bytes of body kept`,
          ),
          headers.length
            ? h(
                'table',
                { class: 'kv answer-headers' },
                h(
                  'tbody',
                  null,
                  headers.map(([k, v]) => h('tr', null, h('td', null, k), h('td', null, v))),
                ),
              )
            : null,
          a.responseBody
            ? h(
                'pre',
                {
                  class: 'response-body',
                  tabindex: '0',
                  role: 'group',
                  'aria-label': `Answer body of attempt ${a.number}`,
                },
                prettyJson(a.responseBody),
              )
            : h('div', { class: 'muted' }, 'empty body'),
        )
      : null,
  );
}

// @ts-check
// Delivery over time, per credential (decision 0105): two small inline SVG charts drawn
// from the timelines of GET /__admin/delivery-stats (buckets of wall time, at most 24): the share of
// attempts answered 200, and how long the answered ones took. No charting library: a few rects.
// Each chart carries its figures in words (its <title>) and in a table, and the failed share is
// hatched as well as red, so nothing is told by colour alone.

import { h } from './dom.js';
import { state } from './state.js';

/** @typedef {import('../src/client/types.js').DeliveryStatsList} StatsList */
/** @typedef {StatsList['credentials'][number]} CredentialStats */
/** @typedef {CredentialStats['timeline'][number]} Bucket */

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 312;
const HEIGHT = 88;
/** Room for the scale on the left and the times below the plot. */
const LEFT = 44;
const TOP = 6;
const BOTTOM = 18;
const PLOT_W = WIDTH - LEFT - 4;
const PLOT_H = HEIGHT - TOP - BOTTOM;
/** The widest bar: a few buckets still read as bars, not as blocks. */
const BAR_MAX = 24;

/**
 * An SVG element (h() makes HTML ones).
 * @param {string} tag
 * @param {Record<string, string | number | undefined>} attrs
 * @param {...(Element | string | null)} children
 */
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) if (c !== null) el.append(c);
  return el;
}

/** `2026-11-26T02:03:04.000Z` → `02:03:04` (the wall-clock time of day, UTC). @param {string} iso */
const wallTime = (iso) => iso.slice(11, 19);

/** @param {number} ms */
function widthText(ms) {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** @param {number} part @param {number} whole */
const percent = (part, whole) => `${Math.round((part / whole) * 1000) / 10}%`;

/** A credential's figures over the window, in words: the charts' text alternative. @param {CredentialStats} c */
export function chartSummary(c) {
  const attempts = sum(c.timeline, 'attempts');
  if (attempts === 0) return `${c.credentialId}: no attempt yet.`;
  const ok = sum(c.timeline, 'successful');
  const answered = sum(c.timeline, 'answered');
  const latency =
    answered === 0
      ? 'no attempt got an answer'
      : `answers took ${Math.round(sum(c.timeline, 'total') / answered)} ms on average, ${Math.max(
          ...c.timeline.map((b) => b.maxMs ?? 0),
        )} ms at most`;
  return `${c.credentialId}: ${attempts} attempt${attempts === 1 ? '' : 's'}, ${ok} answered 200 (${percent(ok, attempts)}); ${latency}.`;
}

/**
 * @param {Bucket[]} buckets @param {'attempts' | 'successful' | 'answered' | 'total'} key
 * (`total`: the answered attempts' summed time, from each bucket's mean)
 */
function sum(buckets, key) {
  return buckets.reduce((n, b) => n + (key === 'total' ? (b.meanMs ?? 0) * b.answered : b[key]), 0);
}

/**
 * The plot's frame: scale labels on the left, the window's first and last times below.
 * @param {string} top @param {string} bottom @param {Bucket[]} buckets
 */
function frame(top, bottom, buckets) {
  const first = buckets[0];
  const last = buckets[buckets.length - 1];
  return [
    s('line', { class: 'axis', x1: LEFT, y1: TOP + PLOT_H, x2: LEFT + PLOT_W, y2: TOP + PLOT_H }),
    s('text', { class: 'scale', x: LEFT - 4, y: TOP + 8, 'text-anchor': 'end' }, top),
    s('text', { class: 'scale', x: LEFT - 4, y: TOP + PLOT_H, 'text-anchor': 'end' }, bottom),
    first ? s('text', { class: 'scale', x: LEFT, y: HEIGHT - 4 }, wallTime(first.from)) : null,
    last && last !== first
      ? s(
          'text',
          { class: 'scale', x: LEFT + PLOT_W, y: HEIGHT - 4, 'text-anchor': 'end' },
          wallTime(last.from),
        )
      : null,
  ];
}

/**
 * One chart: an <svg role="img"> named by its <title> (the figures in words) and described by <desc>.
 * @param {string} id @param {string} title @param {string} desc @param {Element[]} marks @param {Array<Element | null>} axes
 */
function chart(id, title, desc, marks, axes) {
  return s(
    'svg',
    {
      id,
      class: 'chart',
      role: 'img',
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      width: WIDTH,
      height: HEIGHT,
      'aria-labelledby': `${id}-title ${id}-desc`,
    },
    s('title', { id: `${id}-title` }, title),
    s('desc', { id: `${id}-desc` }, desc),
    ...axes,
    ...marks,
  );
}

/** The share answered 200 per bucket: a solid bar for it over a hatched one for the failures. @param {CredentialStats} c @param {string} key */
function successChart(c, key) {
  const n = c.timeline.length;
  const slot = PLOT_W / Math.max(n, 1);
  const bar = Math.min(BAR_MAX, Math.max(2, slot - 2));
  /** @type {Element[]} */
  const marks = [];
  c.timeline.forEach((b, i) => {
    if (b.attempts === 0) return;
    const x = LEFT + i * slot + (slot - bar) / 2;
    const okH = (b.successful / b.attempts) * PLOT_H;
    const failH = PLOT_H - okH;
    const tip = `${wallTime(b.from)}: ${b.successful} of ${b.attempts} answered 200`;
    if (failH > 0)
      marks.push(s('rect', { class: 'fail', x, y: TOP, width: bar, height: failH }, s('title', {}, tip)));
    if (okH > 0)
      marks.push(s('rect', { class: 'ok', x, y: TOP + failH, width: bar, height: okH }, s('title', {}, tip)));
  });
  const attempts = sum(c.timeline, 'attempts');
  const ok = sum(c.timeline, 'successful');
  return chart(
    `chart-success-${key}`,
    `Success rate of ${c.credentialId}: ${attempts ? `${ok} of ${attempts} attempts answered 200 (${percent(ok, attempts)})` : 'no attempt yet'}`,
    'Per bucket of wall time, the share of attempts answered exactly 200 (solid) and of the others (hatched).',
    marks,
    frame('100%', '0%', c.timeline),
  );
}

/** The mean time to an answer per bucket (a bar) and the longest (a tick above it). @param {CredentialStats} c @param {string} key */
function latencyChart(c, key) {
  const n = c.timeline.length;
  const slot = PLOT_W / Math.max(n, 1);
  const bar = Math.min(BAR_MAX, Math.max(2, slot - 2));
  const top = Math.max(1, ...c.timeline.map((b) => b.maxMs ?? 0));
  const y = (/** @type {number} */ ms) => TOP + PLOT_H - (ms / top) * PLOT_H;
  /** @type {Element[]} */
  const marks = [];
  c.timeline.forEach((b, i) => {
    if (b.meanMs === null || b.maxMs === null) return;
    const x = LEFT + i * slot + (slot - bar) / 2;
    const tip = `${wallTime(b.from)}: ${b.answered} answered, ${b.meanMs} ms on average, ${b.maxMs} ms at most`;
    marks.push(
      s(
        'rect',
        { class: 'mean', x, y: y(b.meanMs), width: bar, height: Math.max(1, TOP + PLOT_H - y(b.meanMs)) },
        s('title', {}, tip),
      ),
      s('line', { class: 'max', x1: x, x2: x + bar, y1: y(b.maxMs), y2: y(b.maxMs) }, s('title', {}, tip)),
    );
  });
  const answered = sum(c.timeline, 'answered');
  return chart(
    `chart-latency-${key}`,
    `Latency of ${c.credentialId}: ${
      answered
        ? `${answered} answered, ${Math.round(sum(c.timeline, 'total') / answered)} ms on average, ${top} ms at most`
        : 'no answer yet'
    }`,
    'Per bucket of wall time, the mean time to the answer (bar) and the longest (tick) of the attempts that got an HTTP answer.',
    marks,
    frame(answered ? `${top} ms` : '', '0 ms', c.timeline),
  );
}

/** The figures the charts draw, as a table (only the buckets with attempts). @param {CredentialStats} c @param {string} key */
function figures(c, key) {
  const rows = c.timeline.filter((b) => b.attempts > 0);
  return h(
    'details',
    { class: 'chart-figures' },
    h('summary', null, `Figures of ${c.credentialId}`),
    rows.length
      ? h(
          'table',
          { id: `chart-table-${key}` },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              [
                'From (wall time, UTC)',
                'Attempts',
                'Answered 200',
                'Success',
                'Answered',
                'Mean ms',
                'Longest ms',
              ].map((t) => h('th', { scope: 'col' }, t)),
            ),
          ),
          h(
            'tbody',
            null,
            rows.map((b) =>
              h(
                'tr',
                { 'data-from': b.from },
                h('td', { class: 'mono' }, wallTime(b.from)),
                h('td', { class: 'num' }, b.attempts),
                h('td', { class: 'num' }, b.successful),
                h('td', { class: 'num' }, percent(b.successful, b.attempts)),
                h('td', { class: 'num' }, b.answered),
                h('td', { class: 'num' }, b.meanMs ?? '—'),
                h('td', { class: 'num' }, b.maxMs ?? '—'),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No attempt in this window.'),
  );
}

/** The legend: each mark named in words next to its swatch. */
function legend() {
  const swatch = (/** @type {string} */ cls, /** @type {string} */ text) =>
    h(
      'span',
      { class: 'legend-item' },
      s(
        'svg',
        { width: 14, height: 10, 'aria-hidden': 'true' },
        s('rect', { class: cls, x: 0, y: 0, width: 14, height: 10 }),
      ),
      text,
    );
  return h(
    'p',
    { class: 'chart-legend' },
    swatch('ok', 'answered 200'),
    swatch('fail', 'other answer or none (hatched)'),
    swatch('mean', 'mean time to the answer'),
    h('span', { class: 'legend-item' }, h('span', { class: 'max-swatch', 'aria-hidden': 'true' }), 'longest'),
  );
}

/** The hatching of the failed share, referenced by the charts and the legend (`url(#chart-hatch)`). */
function defs() {
  return s(
    'svg',
    { class: 'chart-defs', 'aria-hidden': 'true', focusable: 'false' },
    s(
      'defs',
      {},
      s(
        'pattern',
        {
          id: 'chart-hatch',
          width: 5,
          height: 5,
          patternUnits: 'userSpaceOnUse',
          patternTransform: 'rotate(45)',
        },
        s('rect', { class: 'hatch-bg', width: 5, height: 5 }),
        s('line', { class: 'hatch-line', x1: 0, y1: 0, x2: 0, y2: 5 }),
      ),
    ),
  );
}

/** The panel: one row per credential with attempts in the window (or configured), both charts side by side. */
export function renderCharts() {
  const w = state.statsWindow;
  const shown = state.stats.filter((c) => c.configured || c.attempts > 0);
  const span = w?.from
    ? `${w.count} buckets of ${widthText(w.bucketMs)} from ${wallTime(w.from)} UTC (wall time)`
    : '';
  return h(
    'div',
    {
      class: 'panel charts',
      id: 'charts-panel',
      'data-from': w?.from ?? undefined,
      'data-bucket-ms': w?.from ? w.bucketMs : undefined,
    },
    h('h2', { id: 'charts-panel-title' }, 'Delivery over time'),
    h(
      'div',
      { class: 'body' },
      !w?.from || shown.length === 0
        ? h(
            'div',
            { class: 'empty', id: 'charts-empty' },
            state.loaded ? 'No attempt yet: the charts show once a notification is sent.' : 'Loading…',
          )
        : [
            h(
              'p',
              { class: 'muted', id: 'charts-window' },
              `Per credential, ${span}; the newest bucket is still filling.`,
            ),
            defs(),
            legend(),
            shown.map((c, i) => {
              const key = String(i);
              return h(
                'figure',
                { class: 'chart-row', 'data-id': c.credentialId },
                h('figcaption', { class: 'chart-caption' }, chartSummary(c)),
                h('div', { class: 'chart-pair' }, successChart(c, key), latencyChart(c, key)),
                figures(c, key),
              );
            }),
          ],
    ),
  );
}

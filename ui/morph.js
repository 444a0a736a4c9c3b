// @ts-check
// Brings the page's DOM to a freshly drawn tree by changing only what differs, so a redraw keeps
// focus, the caret, scroll positions and opened <details>, and touches only the rows that changed.

const HANDLERS = ['onclick', 'oninput', 'onchange', 'onsubmit', 'ontoggle', 'onkeydown'];

/** @param {Node} node */
const keyOf = (node) => (node instanceof Element ? node.getAttribute('data-id') : null);

/** @param {Node} a @param {Node} b */
function sameKind(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (!(a instanceof Element) || !(b instanceof Element)) return true;
  // Two elements with different ids are different things (the Notifications and the Set-up section).
  return (
    a.id === b.id &&
    a.getAttribute('data-id') === b.getAttribute('data-id') &&
    a.getAttribute('type') === b.getAttribute('type') &&
    a.getAttribute('data-keep') === b.getAttribute('data-keep')
  );
}

/**
 * Makes `live` look like `fresh` and answers the node now on the page (`live`, or `fresh` when the
 * two are not the same kind of node). An element marked `data-keep` is left as it is when the page
 * already has it with the same value: its owner updates it (the notification rows) or the reader
 * shaped it (a body's opened and closed levels).
 * @param {Node} live
 * @param {Node} fresh
 * @returns {Node}
 */
export function morph(live, fresh) {
  if (live === fresh) return live;
  if (!sameKind(live, fresh)) {
    /** @type {ChildNode} */ (live).replaceWith(fresh);
    return fresh;
  }
  if (!(live instanceof Element) || !(fresh instanceof Element)) {
    if (live.nodeValue !== fresh.nodeValue) live.nodeValue = fresh.nodeValue;
    return live;
  }
  if (live.hasAttribute('data-keep')) return live;
  syncAttributes(live, fresh);
  const l = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (live));
  const f = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (fresh));
  for (const name of HANDLERS) if (l[name] !== f[name]) l[name] = f[name];
  syncChildren(live, fresh);
  syncValue(live, fresh);
  return live;
}

/** @param {Element} live @param {Element} fresh */
function syncAttributes(live, fresh) {
  // An opened or closed <details> is the reader's choice: drawn once, then left as they set it.
  const keepOpen = live.nodeName === 'DETAILS';
  for (const { name, value } of [...fresh.attributes]) {
    if (keepOpen && name === 'open') continue;
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
  for (const { name } of [...live.attributes]) {
    if (keepOpen && name === 'open') continue;
    if (!fresh.hasAttribute(name)) live.removeAttribute(name);
  }
}

/** The value a form control shows; never changed under the reader's caret. @param {Element} live @param {Element} fresh */
function syncValue(live, fresh) {
  if (live === document.activeElement) return;
  if (live instanceof HTMLInputElement && fresh instanceof HTMLInputElement) {
    if (live.type === 'checkbox' || live.type === 'radio') {
      if (live.checked !== fresh.checked) live.checked = fresh.checked;
    } else if (live.value !== fresh.value) live.value = fresh.value;
  } else if (
    (live instanceof HTMLTextAreaElement && fresh instanceof HTMLTextAreaElement) ||
    (live instanceof HTMLSelectElement && fresh instanceof HTMLSelectElement)
  ) {
    if (live.value !== fresh.value) live.value = fresh.value;
  }
}

/** @param {Element} live @param {Element} fresh */
function syncChildren(live, fresh) {
  const wanted = [...fresh.childNodes];
  /** @type {Map<string, Node>} */
  const byKey = new Map();
  for (const child of live.childNodes) {
    const key = keyOf(child);
    if (key !== null) byKey.set(key, child);
  }
  for (let i = 0; i < wanted.length; i++) {
    const next = /** @type {Node} */ (wanted[i]);
    const at = live.childNodes[i] ?? null;
    const key = keyOf(next);
    /** @type {Node | null | undefined} */
    const match = key === null ? (at && keyOf(at) === null ? at : null) : byKey.get(key);
    if (key !== null) byKey.delete(key);
    let placed;
    if (match) placed = morph(match, next);
    else placed = next;
    if (live.childNodes[i] !== placed) live.insertBefore(placed, live.childNodes[i] ?? null);
  }
  while (live.childNodes.length > wanted.length) /** @type {ChildNode} */ (live.lastChild).remove();
}

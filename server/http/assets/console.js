// @ts-check
/**
 * The console's task page: draws the tool's state diagram with the docs pages' Mermaid and ELK
 * (diagram-view.js, loaded before this) and highlights the states the task is in now. The server
 * names them by Mermaid id in the box's `data-current` (the states), `data-around` (the
 * composite states holding them) and `data-visited` (states it passed through, marked
 * apart): attributes, never script, so the page's CSP allows no inline
 * code. Mermaid names a state's SVG group `<diagram>-state-<id>-<n>`.
 *
 * Loaded after mermaid.min.js and diagram-view.js. Checked by `tsc -p tsconfig.assets.json`.
 */
/* global batonDiagrams */
(async () => {
  'use strict';
  /** Marks the states the box's data attributes name; answers the first current state's group. */
  const mark = (/** @type {HTMLElement} */ box) => {
    const ids = (/** @type {string} */ name) => (box.dataset[name] ?? '').split(' ').filter(Boolean);
    const current = new Set(ids('current'));
    const around = new Set(ids('around'));
    const visited = new Set(ids('visited'));
    /** @type {Element | undefined} */
    let first;
    const marked = [];
    const passed = [];
    for (const group of box.querySelectorAll('g[id]')) {
      const id = /-state-(.+)-\d+$/.exec(group.id)?.[1];
      if (id === undefined) continue;
      group.classList.remove('console-current', 'console-around', 'console-visited');
      if (current.has(id)) {
        group.classList.add('console-current');
        marked.push(id);
        first ??= group;
      } else if (around.has(id)) {
        group.classList.add('console-around');
      } else if (visited.has(id)) {
        group.classList.add('console-visited');
        passed.push(id);
      }
    }
    box.dataset.highlighted = [...new Set(marked)].sort().join(' ');
    box.dataset.passed = [...new Set(passed)].sort().join(' ');
    return first;
  };
  const boxes = /** @type {HTMLElement[]} */ (Array.from(document.querySelectorAll('.console-diagram')));
  for (const [index, box] of boxes.entries()) {
    const source = box.querySelector('pre.mermaid-source')?.textContent ?? '';
    const view = await batonDiagrams.draw(box, `console-diagram-${index}`, source, {
      zoom: true,
      name: 'State diagram',
    });
    const first = mark(box);
    if (view && !(view instanceof SVGSVGElement) && first) view.reveal(first);
    // console-live.js hands the box new states when the task changes.
    box.addEventListener('baton:states', () => void mark(box));
  }
  document.documentElement.dataset.diagrams = 'done';
})();

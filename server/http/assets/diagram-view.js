// @ts-check
/**
 * Draws the docs pages' diagrams (docs.js: every `.diagram`; try-it.js: the panel's diagram) with
 * Mermaid, laid out by ELK, and makes state diagrams zoomable and pannable.
 *
 * ELK (`@mermaid-js/layout-elk`) is an ES module graph the server serves from its own
 * dependencies under `assets/layout-elk/` (no CDN). This classic script loads it with a dynamic
 * `import()`, which the page's `script-src 'self'` allows, and registers it with Mermaid before
 * the first diagram is drawn; a state diagram's frontmatter asks for `layout: elk`. Should the
 * module fail to load, Mermaid falls back to its default layout; the box says which layout drew
 * it (`data-layout`: `elk`, or `default` for Mermaid's own).
 *
 * Zoom and pan: the SVG is drawn at a scale inside a scrolling viewport, so every label stays
 * inside the SVG's own viewport (nothing is clipped by a viewBox) and the browser's own scrolling
 * pans. A diagram starts fitted to the width, but never smaller than READABLE (12 px labels):
 * a large machine then scrolls instead of shrinking to unreadable text. Buttons zoom in, out, to
 * fit the whole diagram and to 100 %; the viewport takes keyboard focus (arrow keys scroll, `+`,
 * `-`, `0` fit, `1` 100 %), Ctrl or ⌘ with the wheel zooms around the pointer, and a drag pans.
 *
 * Loaded after mermaid.min.js and before docs.js and the Try it scripts; its one top-level name
 * is `batonDiagrams`. Checked by `tsc -p tsconfig.assets.json`.
 */

/** @typedef {{ svg: string }} DrawnSvg */
/**
 * Mermaid's global, as far as this script uses it.
 * @typedef {object} DiagramMermaid
 * @property {(config: Record<string, unknown>) => void} initialize
 * @property {(id: string, source: string) => Promise<DrawnSvg>} render
 * @property {(loaders: unknown[]) => void} registerLayoutLoaders
 */
/**
 * A drawn, zoomable diagram.
 * @typedef {object} DiagramView
 * @property {SVGSVGElement} svg
 * @property {HTMLElement} viewport
 * @property {() => number} scale
 * @property {(scale: number, focus?: { x: number, y: number }) => void} zoomTo
 * @property {(element: Element) => void} reveal
 */

/* exported batonDiagrams */
const batonDiagrams = (() => {
  'use strict';
  const { mermaid } = /** @type {{ mermaid: DiagramMermaid }} */ (/** @type {unknown} */ (window));
  // ELK breaks cycles depth first from the diagram's start, so a state diagram reads downwards in
  // the order the flow runs and only loops back (a retry, a re-ask) point up. Mermaid takes this
  // key from site configuration only, not from a diagram's frontmatter.
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    elk: { cycleBreakingStrategy: 'DEPTH_FIRST' },
  });

  /** Mermaid's labels are 16 px at scale 1: 0.75 keeps them at 12 px. */
  const READABLE = 0.75;
  const MIN_SCALE = 0.1;
  const MAX_SCALE = 4;
  const STEP = 1.25;

  const script = document.currentScript;
  const here = script instanceof HTMLScriptElement ? script.src : location.href;
  /** Resolves to `elk` once ELK is registered, or `default` when it did not load. */
  const layout = import(new URL('layout-elk/mermaid-layout-elk.esm.min.mjs', here).href).then(
    (module) => {
      mermaid.registerLayoutLoaders(module.default);
      return 'elk';
    },
    (error) => {
      console.warn('ELK layout not loaded; the diagrams use Mermaid’s default layout.', error);
      return 'default';
    },
  );

  /**
   * @param {string} tag
   * @param {Record<string, string>} attributes
   * @param {string} [text]
   */
  function el(tag, attributes, text) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    if (text !== undefined) element.textContent = text;
    return element;
  }

  /**
   * The SVG's natural size, from its viewBox (Mermaid always sets one).
   * @param {SVGSVGElement} svg
   */
  function naturalSize(svg) {
    const box = svg.viewBox.baseVal;
    return box && box.width > 0 ? { width: box.width, height: box.height } : svg.getBBox();
  }

  /**
   * Wraps a drawn SVG in a zoomable viewport with its toolbar.
   * @param {HTMLElement} box
   * @param {SVGSVGElement} svg
   * @param {string} name what the diagram shows, for assistive technology
   * @returns {DiagramView}
   */
  function zoomable(box, svg, name) {
    const natural = naturalSize(svg);
    const viewport = el('div', {
      class: 'diagram-viewport',
      tabindex: '0',
      role: 'group',
      'aria-label': `${name}: arrow keys scroll, + and - zoom, 0 fits, 1 is 100 %`,
    });
    const level = el('output', { class: 'diagram-zoom-level', 'aria-live': 'polite' });
    /** @param {string} action @param {string} label @param {string} text */
    const button = (action, label, text) =>
      el('button', { type: 'button', 'data-zoom': action, 'aria-label': label, title: label }, text);
    const toolbar = el('div', { class: 'diagram-toolbar', role: 'toolbar', 'aria-label': `${name} zoom` });
    toolbar.append(
      button('out', 'Zoom out', '−'),
      button('in', 'Zoom in', '+'),
      button('fit', 'Fit the whole diagram', 'Fit'),
      button('actual', 'Zoom to 100 %', '1:1'),
      level,
    );
    // Mermaid sizes the SVG to its container (width 100%, max-width); the viewer sets the size.
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.style.maxWidth = 'none';
    viewport.append(svg);
    box.replaceChildren(toolbar, viewport);

    let current = 1;
    /** @param {number} scale @param {{ x: number, y: number }} [focus] a point of the viewport that stays put */
    function zoomTo(scale, focus) {
      const next = Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
      const at = focus ?? { x: viewport.clientWidth / 2, y: viewport.clientHeight / 2 };
      // The drawing's point under `at`, in unscaled units, is kept under `at` after the zoom.
      const x = (viewport.scrollLeft + at.x) / current;
      const y = (viewport.scrollTop + at.y) / current;
      current = next;
      svg.style.width = `${natural.width * next}px`;
      svg.style.height = `${natural.height * next}px`;
      viewport.scrollLeft = x * next - at.x;
      viewport.scrollTop = y * next - at.y;
      level.textContent = `${Math.round(next * 100)} %`;
      box.dataset.scale = String(Math.round(next * 1000) / 1000);
    }
    // The room there is: the box's width (the viewport shrinks to a small drawing), and the
    // viewport's maximum height (its stylesheet sets one).
    const fitWidth = () => Math.min(1, (box.clientWidth - 2) / natural.width);
    const fitAll = () => {
      const tallest = parseFloat(getComputedStyle(viewport).maxHeight) || window.innerHeight;
      return Math.min(fitWidth(), (tallest - 2) / natural.height);
    };

    toolbar.addEventListener('click', (event) => {
      const target = event.target instanceof Element ? event.target.closest('button[data-zoom]') : null;
      if (!(target instanceof HTMLElement)) return;
      const action = target.dataset.zoom;
      if (action === 'in') zoomTo(current * STEP);
      else if (action === 'out') zoomTo(current / STEP);
      else if (action === 'fit') zoomTo(fitAll());
      else zoomTo(1);
    });
    viewport.addEventListener('keydown', (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const actions = /** @type {Record<string, () => void>} */ ({
        '+': () => zoomTo(current * STEP),
        '=': () => zoomTo(current * STEP),
        '-': () => zoomTo(current / STEP),
        0: () => zoomTo(fitAll()),
        1: () => zoomTo(1),
      });
      const action = actions[event.key];
      if (!action) return; // arrows, Page Up/Down, Home/End: the viewport scrolls by itself
      event.preventDefault();
      action();
    });
    viewport.addEventListener(
      'wheel',
      (event) => {
        if (!event.ctrlKey && !event.metaKey) return; // a plain wheel scrolls the viewport
        event.preventDefault();
        const rect = viewport.getBoundingClientRect();
        zoomTo(current * Math.pow(STEP, -Math.sign(event.deltaY)), {
          x: event.clientX - rect.left,
          y: event.clientY - rect.top,
        });
      },
      { passive: false },
    );
    /** @type {{ x: number, y: number, left: number, top: number } | undefined} */
    let drag;
    viewport.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || event.pointerType === 'touch') return; // touch scrolls natively
      drag = { x: event.clientX, y: event.clientY, left: viewport.scrollLeft, top: viewport.scrollTop };
      viewport.setPointerCapture(event.pointerId);
      viewport.dataset.dragging = 'true';
    });
    viewport.addEventListener('pointermove', (event) => {
      if (!drag) return;
      viewport.scrollLeft = drag.left - (event.clientX - drag.x);
      viewport.scrollTop = drag.top - (event.clientY - drag.y);
    });
    const endDrag = () => {
      drag = undefined;
      delete viewport.dataset.dragging;
    };
    viewport.addEventListener('pointerup', endDrag);
    viewport.addEventListener('pointercancel', endDrag);

    /**
     * Scrolls the viewport (only it, never the page) so an element of the drawing is in view.
     * @param {Element} element
     */
    function reveal(element) {
      const outer = viewport.getBoundingClientRect();
      const inner = element.getBoundingClientRect();
      const inside =
        inner.left >= outer.left &&
        inner.right <= outer.right &&
        inner.top >= outer.top &&
        inner.bottom <= outer.bottom;
      if (inside) return;
      viewport.scrollLeft += inner.left + inner.width / 2 - (outer.left + outer.width / 2);
      viewport.scrollTop += inner.top + inner.height / 2 - (outer.top + outer.height / 2);
    }

    zoomTo(Math.max(fitWidth(), Math.min(1, READABLE)));
    viewport.scrollLeft = 0;
    viewport.scrollTop = 0;
    return { svg, viewport, scale: () => current, zoomTo, reveal };
  }

  /**
   * Draws Mermaid source into `box` (replacing what is there) and marks the box `data-rendered`
   * `ok` or `error` (with `data-error`), and `data-layout` (`elk` or `default`). With `zoom`, the
   * diagram becomes zoomable.
   * @param {HTMLElement} box
   * @param {string} id a document-unique id for Mermaid's SVG
   * @param {string} source
   * @param {{ zoom?: boolean, name?: string }} [options]
   * @returns {Promise<DiagramView | SVGSVGElement | undefined>}
   */
  async function draw(box, id, source, options = {}) {
    // What will draw it: ELK where the frontmatter asks for it and the module loaded.
    const asksForElk = /^---\n[\s\S]*?^\s*layout:\s*elk\s*$[\s\S]*?^---$/m.test(source);
    box.dataset.layout = asksForElk && (await layout) === 'elk' ? 'elk' : 'default';
    try {
      const { svg } = await mermaid.render(id, source);
      box.innerHTML = svg;
      const drawn = box.querySelector('svg');
      box.dataset.rendered = 'ok';
      if (!(drawn instanceof SVGSVGElement)) return undefined;
      return options.zoom ? zoomable(box, drawn, options.name ?? 'Diagram') : drawn;
    } catch (error) {
      box.dataset.rendered = 'error';
      box.dataset.error = String((error instanceof Error && error.message) || error);
      const note = document.createElement('p');
      note.textContent = 'This diagram could not be drawn: ' + box.dataset.error;
      box.prepend(note);
      return undefined;
    }
  }

  return { draw, layout, READABLE };
})();

// @ts-check
/**
 * The console's live updates: listens to the page's event stream (`<main data-events>`, served by
 * console-events.ts), which says only which tasks changed, at most about once a second. On each
 * event the page fetches itself again (its own guarded URL, same credentials) and swaps in its
 * `[data-live]` sections, and on a task page hands the diagram its new states (console.js marks
 * them). A section holding the field being typed in is left alone until the next change. The
 * browser's EventSource reconnects by itself when the stream ends.
 *
 * Checked by `tsc -p tsconfig.assets.json`.
 */
(() => {
  'use strict';
  const main = document.querySelector('main[data-events]');
  const url = main instanceof HTMLElement ? main.dataset.events : undefined;
  if (!url || typeof EventSource === 'undefined') return;
  let busy = false;
  let again = false;

  /** Whether the operator is typing in `section`: then it is not replaced under their hands. */
  const editing = (/** @type {Element} */ section) => {
    const active = document.activeElement;
    return active !== null && section.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
  };

  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const response = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
      for (const section of document.querySelectorAll('[data-live][id]')) {
        const next = fresh.getElementById(section.id);
        if (next && !editing(section)) section.replaceWith(document.adoptNode(next));
      }
      const box = document.querySelector('.console-diagram');
      const nextBox = fresh.querySelector('.console-diagram');
      if (box instanceof HTMLElement && nextBox instanceof HTMLElement) {
        for (const name of ['current', 'around', 'visited']) box.dataset[name] = nextBox.dataset[name] ?? '';
        box.dispatchEvent(new CustomEvent('baton:states'));
      }
      document.documentElement.dataset.liveRefreshed = String(
        Number(document.documentElement.dataset.liveRefreshed ?? 0) + 1,
      );
    } catch {
      // A failed fetch leaves the page as it was; the next change tries again.
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };

  const source = new EventSource(url);
  source.addEventListener('ready', () => {
    document.documentElement.dataset.live = 'on';
  });
  source.addEventListener('changed', () => void refresh());
})();

// @ts-check
/**
 * The diagram editor of a tool's page under `baton dev` (server/cli/editor): lists the machine's
 * states and transitions as the parser reads them from the tool's own file, and sends each edit
 * to `POST /dev/editor/tools/<name>/edit` with the file's hash and the page's token. After an
 * edit the server has already reloaded the tool, so the page reloads to draw the new diagram and
 * Try it. Plain DOM, every piece of server data set as text, never as markup (strict CSP).
 */

/**
 * @typedef {{ id: string, path: string[], type: string, initial?: string, question?: string, invokes: number }} OutlineState
 * @typedef {{ from: string[], path: Array<string | number>, trigger: string, targets: string[], guard?: string }} OutlineTransition
 * @typedef {{ tool: string, file: string, kind: string, hash: string, undo: number, token: string, actors: string[],
 *   outline: { states: OutlineState[], transitions: OutlineTransition[] } }} EditorState
 */

(() => {
  const section = /** @type {HTMLElement | null} */ (document.getElementById('editor'));
  const panel = section?.querySelector('.editor-panel');
  if (!section || !(panel instanceof HTMLElement)) return;
  const api = section.dataset.api ?? '';
  /** @type {EditorState | undefined} */
  let state;

  /**
   * @param {string} tag
   * @param {Record<string, string>} [attrs]
   * @param {Array<Node | string>} [children]
   */
  function el(tag, attrs = {}, children = []) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    for (const child of children) node.append(child);
    return node;
  }
  const status = el('p', { class: 'editor-status', role: 'status' });
  const label = (/** @type {OutlineState} */ s) => s.id || '(root)';

  /** @param {string} text @param {'ok' | 'error' | 'busy'} kind */
  function say(text, kind) {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  /** @param {string} path @param {unknown} body */
  async function post(path, body) {
    if (!state) return;
    say('Saving…', 'busy');
    const response = await fetch(`${api}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'baton-editor-token': state.token },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok) {
      sessionStorage.setItem('baton-editor-said', `Saved to ${state.file}.`);
      location.hash = 'editor';
      location.reload();
      return;
    }
    if (response.status === 409) {
      sessionStorage.setItem('baton-editor-said', `${answer.error?.message ?? 'The file changed.'} Reloaded.`);
      location.reload();
      return;
    }
    say(answer.error?.message ?? `Refused (${response.status}).`, 'error');
  }
  /** @param {object} edit */
  const edit = (edit) => post('edit', { hash: state?.hash, edit });

  /** A `<select>` of the machine's states; `root` adds the root, `none` an empty choice. */
  function stateSelect(/** @type {string} */ name, root = false, none = false) {
    const select = /** @type {HTMLSelectElement} */ (el('select', { name }));
    if (none) select.append(el('option', { value: '' }, ['(none)']));
    for (const s of state?.outline.states ?? []) {
      if (s.id === '' && !root) continue;
      select.append(el('option', { value: s.id }, [label(s)]));
    }
    return select;
  }
  const pathOf = (/** @type {string} */ id) => (id === '' ? [] : id.split('.'));
  const value = (/** @type {HTMLFormElement} */ form, /** @type {string} */ name) =>
    /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();

  /** A small form in a <details>, sending `make(form)` as an edit. */
  function formBlock(
    /** @type {string} */ title,
    /** @type {Array<Node>} */ fields,
    /** @type {(form: HTMLFormElement) => object} */ make,
  ) {
    const form = /** @type {HTMLFormElement} */ (
      el('form', { class: 'editor-form' }, [...fields, el('button', { type: 'submit' }, [title])])
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void edit(make(form));
    });
    return el('details', { class: 'editor-block' }, [el('summary', {}, [title]), form]);
  }
  const field = (/** @type {string} */ text, /** @type {Node} */ input) => el('label', {}, [text, ' ', input]);
  const input = (/** @type {string} */ name, placeholder = '') =>
    el('input', { name, placeholder, autocomplete: 'off' });

  function statesTable() {
    const rows = (state?.outline.states ?? []).filter((s) => s.id !== '');
    const table = el('table', { class: 'editor-states' }, [
      el('thead', {}, [el('tr', {}, [el('th', {}, ['State']), el('th', {}, ['Kind']), el('th', {}, ['Change'])])]),
    ]);
    const body = el('tbody');
    const parents = new Map((state?.outline.states ?? []).map((s) => [s.id, s]));
    for (const s of rows) {
      const parent = parents.get(s.path.slice(0, -1).join('.'));
      const kinds = [
        ...(parent?.initial === s.path.at(-1) ? ['initial'] : []),
        ...(s.type === 'final' ? ['final'] : []),
        ...(s.question ? [`asks ${s.question}`] : []),
        ...(s.invokes ? ['invokes'] : []),
      ];
      const rename = /** @type {HTMLInputElement} */ (
        el('input', { 'aria-label': `New name for ${s.id}`, value: s.path.at(-1) ?? '', size: '12' })
      );
      const button = (/** @type {string} */ text, /** @type {() => void} */ act) => {
        const b = el('button', { type: 'button' }, [text]);
        b.addEventListener('click', act);
        return b;
      };
      body.append(
        el('tr', { 'data-state': s.id }, [
          el('td', {}, [el('code', {}, [s.id])]),
          el('td', {}, [kinds.join(', ')]),
          el('td', {}, [
            rename,
            button('Rename', () => void edit({ op: 'rename-state', path: s.path, name: rename.value.trim() })),
            button(
              s.type === 'final' ? 'Not final' : 'Mark final',
              () => void edit({ op: 'set-final', path: s.path, final: s.type !== 'final' }),
            ),
            button('Make initial', () => void edit({ op: 'set-initial', path: s.path })),
            button('Delete', () => void edit({ op: 'delete-state', path: s.path })),
          ]),
        ]),
      );
    }
    table.append(body);
    return table;
  }

  function transitionsTable() {
    const table = el('table', { class: 'editor-transitions' }, [
      el('thead', {}, [el('tr', {}, [el('th', {}, ['From']), el('th', {}, ['On']), el('th', {}, ['To'])])]),
    ]);
    const body = el('tbody');
    for (const t of state?.outline.transitions ?? []) {
      const to = stateSelect('to');
      to.value = t.targets[0] ?? '';
      to.setAttribute('aria-label', `Target of ${t.from.join('.')} ${t.trigger}`);
      to.addEventListener(
        'change',
        () => void edit({ op: 'retarget-transition', from: t.from, transition: t.path, to: pathOf(to.value) }),
      );
      const remove = el('button', { type: 'button' }, ['Delete']);
      remove.addEventListener('click', () => void edit({ op: 'delete-transition', from: t.from, transition: t.path }));
      body.append(
        el('tr', {}, [
          el('td', {}, [el('code', {}, [t.from.join('.') || '(root)'])]),
          el('td', {}, [t.trigger, ...(t.guard ? [` [${t.guard}]`] : [])]),
          el('td', {}, [to, remove]),
        ]),
      );
    }
    table.append(body);
    return table;
  }

  /** The trigger form's fields: which one shows depends on the kind chosen. */
  function triggerOf(/** @type {HTMLFormElement} */ form) {
    const type = value(form, 'type');
    if (type === 'event') return { type, event: value(form, 'event') };
    if (type.startsWith('answer.')) return { type: 'answer', key: value(form, 'key'), outcome: type.slice(7) };
    if (type === 'after') return { type, delay: Number(value(form, 'delay')) };
    return { type };
  }

  function questionFields() {
    const list = el('div', { class: 'editor-fields' });
    const addRow = () => {
      const type = /** @type {HTMLSelectElement} */ (
        el(
          'select',
          { name: 'field-type' },
          ['string', 'number', 'boolean', 'enum'].map((t) => el('option', { value: t }, [t])),
        )
      );
      const options = el('input', { name: 'field-options', placeholder: 'choices, comma-separated', hidden: '' });
      type.addEventListener('change', () => options.toggleAttribute('hidden', type.value !== 'enum'));
      const remove = el('button', { type: 'button' }, ['Remove']);
      const row = el('div', { class: 'editor-field' }, [
        el('input', { name: 'field-name', placeholder: 'name', 'aria-label': 'Field name' }),
        type,
        el('label', {}, [el('input', { type: 'checkbox', name: 'field-required', checked: '' }), ' required']),
        el('input', { name: 'field-title', placeholder: 'title (shown to the user)', 'aria-label': 'Field title' }),
        options,
        remove,
      ]);
      remove.addEventListener('click', () => row.remove());
      list.append(row);
    };
    addRow();
    const more = el('button', { type: 'button' }, ['Add a field']);
    more.addEventListener('click', addRow);
    return { node: el('fieldset', {}, [el('legend', {}, ['Answer fields']), list, more]), list };
  }

  function render() {
    if (!state) return;
    const undo = el('button', { type: 'button', class: 'editor-undo' }, [
      `Undo${state.undo ? ` (${state.undo})` : ''}`,
    ]);
    if (!state.undo) undo.setAttribute('disabled', '');
    undo.addEventListener('click', () => void post('undo', { hash: state?.hash }));

    const triggerType = /** @type {HTMLSelectElement} */ (
      el(
        'select',
        { name: 'type' },
        [
          ['event', 'an event'],
          ['answer.accept', 'answer accepted'],
          ['answer.decline', 'answer declined'],
          ['answer.cancel', 'answer cancelled'],
          ['done', 'onDone (invoked work finished)'],
          ['error', 'onError (invoked work failed)'],
          ['after', 'after a delay'],
          ['always', 'always (at once)'],
        ].map(([v, text]) => el('option', { value: v ?? '' }, [text ?? ''])),
      )
    );
    const eventField = field('Event', input('event', 'e.g. retry'));
    const keyField = field('Question key', input('key', 'e.g. confirm'));
    const delayField = field('Delay (ms)', el('input', { name: 'delay', type: 'number', min: '0', value: '60000' }));
    const showTrigger = () => {
      eventField.hidden = triggerType.value !== 'event';
      keyField.hidden = !triggerType.value.startsWith('answer.');
      delayField.hidden = triggerType.value !== 'after';
    };
    triggerType.addEventListener('change', showTrigger);
    showTrigger();

    const fields = questionFields();
    const kind = /** @type {HTMLSelectElement} */ (
      el('select', { name: 'kind' }, [
        el('option', { value: 'form' }, ['form']),
        el('option', { value: 'url' }, ['url']),
      ])
    );
    const urlField = field('URL', input('url', 'https://…'));
    const showKind = () => {
      urlField.hidden = kind.value !== 'url';
      fields.node.hidden = kind.value !== 'form';
    };
    kind.addEventListener('change', showKind);
    showKind();

    // The actors the setup implements, offered by name; a name it lacks is the start-up check's to refuse.
    const actorList = el(
      'datalist',
      { id: 'editor-actors' },
      (state.actors ?? []).map((name) => el('option', { value: name })),
    );
    const actorInput = el('input', {
      name: 'src',
      list: 'editor-actors',
      autocomplete: 'off',
      placeholder: state.actors?.[0] ? `e.g. ${state.actors[0]}` : 'an actor of the setup',
    });

    panel?.replaceChildren(
      el('p', { class: 'editor-file' }, ['Source: ', el('code', {}, [state.file]), ' ', undo]),
      status,
      el('h3', {}, ['States']),
      statesTable(),
      el('h3', {}, ['Transitions']),
      transitionsTable(),
      el('h3', {}, ['Add']),
      formBlock(
        'Add a state',
        [field('In', stateSelect('parent', true)), field('Name', input('name', 'e.g. review'))],
        (form) => ({
          op: 'add-state',
          parent: pathOf(value(form, 'parent')),
          name: value(form, 'name'),
        }),
      ),
      formBlock(
        'Add a transition',
        [
          field('From', stateSelect('from')),
          field('On', triggerType),
          eventField,
          keyField,
          delayField,
          field('To', stateSelect('to')),
        ],
        (form) => ({
          op: 'add-transition',
          from: pathOf(value(form, 'from')),
          trigger: triggerOf(form),
          to: pathOf(value(form, 'to')),
        }),
      ),
      formBlock(
        'Add a question',
        [
          field('In', stateSelect('parent', true)),
          field('State name', input('name', 'e.g. askBudget')),
          field('Question key', input('key', 'e.g. budget')),
          field('Kind', kind),
          field('Message', el('input', { name: 'message', size: '48', placeholder: 'What the user is asked' })),
          urlField,
          fields.node,
          field('On accept go to', stateSelect('accept', false, true)),
          field('On decline go to', stateSelect('decline', false, true)),
          field('On cancel go to', stateSelect('cancel', false, true)),
        ],
        (form) => {
          const rows = [...fields.list.querySelectorAll('.editor-field')].map((row) => {
            const get = (/** @type {string} */ name) =>
              /** @type {HTMLInputElement} */ (row.querySelector(`[name="${name}"]`));
            const type = get('field-type').value;
            return {
              name: get('field-name').value.trim(),
              type,
              required: get('field-required').checked,
              ...(get('field-title').value.trim() ? { title: get('field-title').value.trim() } : {}),
              ...(type === 'enum'
                ? {
                    options: get('field-options')
                      .value.split(',')
                      .map((o) => o.trim())
                      .filter(Boolean),
                  }
                : {}),
            };
          });
          const targets = Object.fromEntries(
            ['accept', 'decline', 'cancel'].filter((o) => value(form, o)).map((o) => [o, pathOf(value(form, o))]),
          );
          return {
            op: 'add-question',
            parent: pathOf(value(form, 'parent')),
            name: value(form, 'name'),
            question: {
              key: value(form, 'key'),
              kind: kind.value,
              message: value(form, 'message'),
              ...(kind.value === 'url' ? { url: value(form, 'url'), fields: [] } : { fields: rows }),
            },
            targets,
          };
        },
      ),
      formBlock(
        'Add an invoked step',
        [
          field('In', stateSelect('parent', true)),
          field('State name', input('name', 'e.g. lookUp')),
          field('Actor', actorInput),
          actorList,
          field('On done go to', stateSelect('done', false, true)),
          field('On error go to', stateSelect('error', false, true)),
        ],
        (form) => ({
          op: 'add-invoke',
          parent: pathOf(value(form, 'parent')),
          name: value(form, 'name'),
          src: value(form, 'src'),
          targets: Object.fromEntries(
            ['done', 'error'].filter((o) => value(form, o)).map((o) => [o, pathOf(value(form, o))]),
          ),
        }),
      ),
    );
    panel?.setAttribute('data-phase', 'ready');
    const said = sessionStorage.getItem('baton-editor-said');
    if (said) {
      sessionStorage.removeItem('baton-editor-said');
      say(said, 'ok');
    }
  }

  fetch(api)
    .then(async (response) => {
      const body = await response.json();
      if (!response.ok) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
      state = /** @type {EditorState} */ (body);
      render();
    })
    .catch((/** @type {Error} */ error) => {
      panel.replaceChildren(
        el('p', { class: 'editor-status', 'data-kind': 'error' }, [
          `The editor cannot edit this tool: ${error.message}`,
        ]),
      );
      panel.setAttribute('data-phase', 'unavailable');
    });
})();

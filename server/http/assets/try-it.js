// @ts-check
/**
 * The "Try it" panel of a tool's docs page: a small MCP client in the page. It calls the tool on
 * this server's own endpoint, renders each round's questions as forms from their schemas, echoes
 * `requestState` untouched with a new request id every round, shows the wire JSON and the
 * progress notifications of a streamed (SSE) round, and highlights the states now waiting in the
 * diagram beside it. A tool that may run as a task declares the tasks extension, and a task handle
 * is followed by try-it-task.js. Served as a file (no inline script, strict CSP); every piece of
 * server data is set as text, never as markup. Reads its settings from the page's #try-it-data block.
 * Uses `batonTryItForms`, `batonTryItWire` (the requests and the wire log) and `batonTryItTask`
 * (the three scripts before it) and `batonDiagrams` (diagram-view.js: draws with ELK, zoom and pan).
 */

/**
 * The page's #try-it-data block (`TryItData` in try-it-panel.ts, which writes it).
 * @typedef {object} TryItData
 * @property {string} tool
 * @property {TryItSchema} inputSchema
 * @property {TryItObject} exampleArguments
 * @property {Array<{ name: string, path: string[] }>} headerParams
 * @property {string} endpoint
 * @property {'open' | 'token' | 'withheld'} auth
 * @property {string} diagram
 * @property {Record<string, string[] | undefined>} waitingStates
 * @property {'optional' | 'required'} [task]
 */
/**
 * One question of a round or a task (`inputRequests[key]`): an elicitation, or a sampling or roots request.
 * @typedef {object} TryItInputRequest
 * @property {string} method
 * @property {{ mode?: string, message?: unknown, url?: unknown, requestedSchema?: TryItSchema, messages?: unknown }} [params]
 */
/**
 * What the panel reads of a result: a tool's result, a round that asks (`input_required`), a
 * created task (`resultType: "task"`) or a task as `tasks/get` shows it.
 * @typedef {object} TryItResult
 * @property {string} [resultType]
 * @property {Record<string, TryItInputRequest>} [inputRequests]
 * @property {unknown} [requestState]
 * @property {boolean} [isError]
 * @property {Array<{ type?: string, text?: string, mimeType?: string, data?: string }>} [content]
 * @property {unknown} [structuredContent]
 * @property {string} [taskId]
 * @property {string} [status]
 * @property {unknown} [statusMessage]
 * @property {unknown} [pollIntervalMs]
 * @property {TryItResult} [result]
 * @property {TryItError} [error]
 */
/** @typedef {{ code?: number, message?: string }} TryItError */
/**
 * How a call ended, as the panel shows it: a response's result or error, a cancelled task, or an
 * HTTP reply whose body was not JSON.
 * @typedef {object} TryItOutcome
 * @property {TryItResult} [result]
 * @property {TryItError} [error]
 * @property {string} [cancelled]
 * @property {number} [httpStatus]
 * @property {string} [body]
 */
/**
 * A message from the server: a response (`id`) or a notification (`method`).
 * @typedef {TryItOutcome & { id?: unknown, method?: string, params?: TryItProgress }} TryItAnswer
 */
/** @typedef {{ progress?: number, total?: number, message?: string }} TryItProgress */
/**
 * A request's params: a tool call (round) or a task's (`tasks/get`, `tasks/update`, `tasks/cancel`).
 * @typedef {TryItCall | { taskId: string, inputResponses?: Record<string, unknown> }} TryItParams
 */
/**
 * @typedef {object} TryItCall
 * @property {string} name
 * @property {TryItObject} arguments
 * @property {Record<string, unknown>} [inputResponses]
 * @property {unknown} [requestState]
 */

(() => {
  'use strict';
  /**
   * A part of the panel's HTML (try-it-panel.ts writes them all).
   * @param {ParentNode} root
   * @param {string} selector
   */
  const part = (root, selector) => {
    const found = root.querySelector(selector);
    if (!(found instanceof HTMLElement)) throw new Error('The Try it panel has no ' + selector);
    return found;
  };
  const dataBlock = document.getElementById('try-it-data');
  if (!dataBlock) return;
  /** @type {TryItData} */
  const data = JSON.parse(dataBlock.textContent ?? '');
  const section = part(document, '#try-it');
  const panel = part(section, '.try-it-panel');
  const diagramBox = part(section, '.try-it-diagram');
  const tokenInput = section.querySelector('.try-it-token input');
  const token = () => (tokenInput instanceof HTMLInputElement ? tokenInput.value.trim() : '');

  const { el, pretty, objectFields } = batonTryItForms;
  /** @param {unknown} error */
  const reason = (error) => (error instanceof Error ? error.message : String(error));

  // ---- the diagram, and which states wait ----------------------------------------------------

  /**
   * Mermaid names a state's SVG group `<diagram>-state-<id>-<n>`; the id is what the server gave.
   * @type {Map<string, Element>}
   */
  const stateGroups = new Map();
  /** @type {DiagramView | undefined} */
  let view;
  async function drawDiagram() {
    const source = part(diagramBox, 'pre.mermaid-source').textContent ?? '';
    const drawn = await batonDiagrams.draw(diagramBox, 'try-it-svg', source, {
      zoom: true,
      name: `State diagram of ${data.tool}`,
    });
    if (!drawn || drawn instanceof SVGSVGElement) return;
    view = drawn;
    for (const group of diagramBox.querySelectorAll('g[id]')) {
      const id = /-state-(.+)-\d+$/.exec(group.id)?.[1];
      if (id !== undefined && !stateGroups.has(id)) stateGroups.set(id, group);
    }
  }

  /** @param {string[]} keys */
  function highlight(keys) {
    for (const group of diagramBox.querySelectorAll('.try-it-waiting')) group.classList.remove('try-it-waiting');
    const ids = [];
    for (const key of keys) {
      // Inside a task a question asked again is `approve.2`, `approve.3`, …: the same states ask it.
      for (const id of data.waitingStates[key] || data.waitingStates[key.replace(/\.\d+$/, '')] || []) {
        ids.push(id);
        const group = stateGroups.get(id);
        if (group) group.classList.add('try-it-waiting');
      }
    }
    diagramBox.dataset.waiting = ids.sort().join(' ');
    // A large machine scrolls in its pane: bring the first state now waiting into view.
    const first = ids.map((id) => stateGroups.get(id)).find((group) => group !== undefined);
    if (view && first) view.reveal(first);
  }

  // ---- the flow (its requests go through try-it-wire.js) --------------------------------------

  const connection = batonTryItWire.connect(data, token);
  const { post } = connection;
  let step = el('div', {});
  let lastArguments = data.exampleArguments;
  /** Bumped by every start: a task followed from an older run stops polling. */
  let generation = 0;

  /**
   * @param {string} phase
   * @param {number} [round]
   */
  function setPhase(phase, round) {
    delete panel.dataset.taskStatus;
    panel.dataset.phase = phase;
    panel.dataset.round = String(round || 0);
  }

  function start() {
    generation += 1;
    step = el('div', { class: 'try-it-step' });
    const { progressBox, wire } = connection.restart();
    panel.replaceChildren(step, progressBox, wire);
    highlight([]);
    const form = el('form', { class: 'try-it-arguments', novalidate: false }, el('h3', {}, 'Arguments'));
    const read = objectFields(form, data.inputSchema, lastArguments);
    form.append(el('div', { class: 'try-it-buttons' }, el('button', { type: 'submit' }, 'Call ' + data.tool)));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const args = read();
      if (!args) return;
      lastArguments = args;
      round({ name: data.tool, arguments: args }, 1);
    });
    step.replaceChildren(form);
    setPhase('arguments');
  }

  /**
   * @param {TryItCall} params
   * @param {number} number
   */
  async function round(params, number) {
    setPhase('sending', number);
    step.replaceChildren(el('p', { class: 'try-it-note' }, 'Round ' + number + ': waiting for the server…'));
    /** @type {TryItAnswer | undefined} */
    let answer;
    try {
      answer = await post('tools/call', params, 'round ' + number);
    } catch (error) {
      return finish({ error: { message: 'The request failed: ' + reason(error) } }, number);
    }
    const result = answer && answer.result;
    const taskId = result?.taskId;
    if (result && result.resultType === 'task' && typeof taskId === 'string') {
      const current = generation;
      return batonTryItTask.follow(
        { ...result, taskId },
        {
          step,
          post,
          question,
          highlight,
          finish,
          restart: start,
          setPhase: (phase, status, exchanges) => {
            setPhase(phase, exchanges);
            panel.dataset.taskStatus = status;
          },
          isCurrent: () => current === generation,
        },
      );
    }
    if (result && (result.resultType === 'input_required' || result.inputRequests)) {
      return ask(params, result, number);
    }
    finish(answer || { error: { message: 'The stream ended without a response.' } }, number);
  }

  /**
   * @param {TryItCall} params
   * @param {TryItResult} result
   * @param {number} number
   */
  function ask(params, result, number) {
    const requests = Object.entries(result.inputRequests || {});
    /** @type {Record<string, unknown>} */
    const answers = {};
    highlight(requests.map(([key]) => key));
    const cards = requests.map(([key, request]) =>
      question(key, request, (response) => {
        answers[key] = response;
        // A decline or a cancel goes at once: it is an answer of its own (often the end of the
        // flow), and a question left unanswered is simply asked again (spec: a missing answer
        // means ask again), so the reader is never made to fill in a form they refused.
        const refused = /** @type {{ action?: unknown }} */ (response)?.action;
        if (refused !== 'decline' && refused !== 'cancel' && Object.keys(answers).length < requests.length) return;
        /** @type {TryItCall} */
        const next = { name: params.name, arguments: params.arguments, inputResponses: answers };
        // Echoed exactly as received: the page never reads or changes the sealed state.
        if (result.requestState !== undefined) next.requestState = result.requestState;
        round(next, number + 1);
      }),
    );
    step.replaceChildren(
      el(
        'h3',
        {},
        'Round ' + number + ': ' + (requests.length === 1 ? 'one question' : requests.length + ' questions'),
      ),
      ...cards,
      el('div', { class: 'try-it-buttons' }, el('button', { type: 'button', onclick: start }, 'Restart')),
    );
    setPhase('asking', number);
  }

  /**
   * A question card; `answer` is called once with the inputResponses value.
   * @param {string} key
   * @param {TryItInputRequest} request
   * @param {(response: unknown) => void} answer
   */
  function question(key, request, answer) {
    const p = request.params || {};
    const kind = request.method === 'elicitation/create' ? (p.mode === 'url' ? 'url' : 'form') : request.method;
    const card = el(
      'form',
      { class: 'try-it-question', 'data-key': key, 'data-kind': kind },
      el('h4', {}, key, ' ', el('small', {}, kind)),
    );
    if (typeof p.message === 'string') card.append(el('p', { class: 'try-it-message-text' }, p.message));
    /** @type {() => unknown} */
    let accept;
    const buttons = [];
    if (kind === 'form') {
      const read = objectFields(card, p.requestedSchema, undefined);
      accept = () => {
        const content = read();
        return content && { action: 'accept', content };
      };
      buttons.push(el('button', { type: 'submit', 'data-action': 'accept' }, 'Submit'));
    } else if (kind === 'url') {
      const safe = /^https?:\/\//i.test(String(p.url));
      card.append(
        el(
          'p',
          {},
          safe
            ? el(
                'a',
                { href: String(p.url), target: '_blank', rel: 'noopener noreferrer', class: 'try-it-link' },
                String(p.url),
              )
            : el('code', {}, String(p.url)),
        ),
      );
      accept = () => ({ action: 'accept' });
      buttons.push(el('button', { type: 'submit', 'data-action': 'accept' }, "I'm done"));
    } else {
      // Sampling and roots (deprecated, still in the spec): the reader writes the client's reply.
      const example =
        kind === 'roots/list'
          ? { roots: [{ uri: 'file:///home/user/project', name: 'project' }] }
          : { role: 'assistant', content: { type: 'text', text: '' }, model: 'docs-reader', stopReason: 'endTurn' };
      if (p.messages) card.append(el('pre', { class: 'code' }, el('code', {}, pretty(p.messages))));
      const box = el('textarea', { rows: 6, class: 'try-it-json', name: 'reply' });
      box.value = pretty(example);
      card.append(el('label', {}, 'Reply (JSON)'), box);
      accept = () => {
        try {
          box.setCustomValidity('');
          return JSON.parse(box.value);
        } catch {
          box.setCustomValidity('This reply must be JSON.');
          box.reportValidity();
          return undefined;
        }
      };
      buttons.push(el('button', { type: 'submit', 'data-action': 'accept' }, 'Send'));
    }
    /**
     * @param {unknown} response
     * @param {string} label
     */
    const settle = (response, label) => {
      card.dataset.answered = label;
      for (const control of card.querySelectorAll('input, select, textarea, button'))
        control.setAttribute('disabled', '');
      card.append(el('p', { class: 'try-it-answered' }, 'Answered: ' + label));
      answer(response);
    };
    if (kind === 'form' || kind === 'url') {
      for (const action of ['decline', 'cancel']) {
        buttons.push(
          el(
            'button',
            { type: 'button', 'data-action': action, onclick: () => settle({ action }, action) },
            action === 'decline' ? 'Decline' : 'Cancel',
          ),
        );
      }
    }
    card.addEventListener('submit', (event) => {
      event.preventDefault();
      const response = accept();
      if (response) settle(response, 'accept');
    });
    card.append(el('div', { class: 'try-it-buttons' }, buttons));
    return card;
  }

  /**
   * Shows the outcome; `kept` (the task's card) stays above it.
   * @param {TryItOutcome} answer
   * @param {number} number
   * @param {HTMLElement[]} [kept]
   */
  function finish(answer, number, kept = []) {
    highlight([]);
    const box = el('div', { class: 'try-it-result' });
    if (answer.cancelled) {
      box.dataset.outcome = 'cancelled';
      box.append(el('h3', {}, 'Cancelled'), el('p', {}, answer.cancelled));
    } else if (answer.error) {
      box.dataset.outcome = 'error';
      box.append(
        el('h3', {}, 'Error' + (answer.error.code !== undefined ? ' ' + answer.error.code : '')),
        el('p', {}, answer.error.message || ''),
      );
    } else if (answer.result) {
      const result = answer.result;
      box.dataset.outcome = result.isError ? 'tool-error' : 'ok';
      box.append(el('h3', {}, result.isError ? 'Result: the tool failed (isError)' : 'Result'));
      for (const item of result.content || []) {
        if (item.type === 'text') box.append(el('pre', { class: 'try-it-text' }, item.text));
        else if (item.type === 'image' && /^image\/[\w.+-]+$/.test(item.mimeType || '')) {
          box.append(el('img', { src: 'data:' + item.mimeType + ';base64,' + item.data, alt: 'image result' }));
        } else box.append(el('pre', { class: 'code' }, el('code', {}, pretty(item))));
      }
      if (result.structuredContent !== undefined) {
        box.append(
          el('h4', {}, 'structuredContent'),
          el('pre', { class: 'code try-it-structured' }, el('code', {}, pretty(result.structuredContent))),
        );
      }
    } else {
      box.dataset.outcome = 'error';
      box.append(el('h3', {}, 'No JSON-RPC response'), el('pre', { class: 'code' }, el('code', {}, pretty(answer))));
    }
    box.append(el('div', { class: 'try-it-buttons' }, el('button', { type: 'button', onclick: start }, 'Restart')));
    step.replaceChildren(...kept, box);
    setPhase('result', number);
  }

  (async () => {
    start();
    await drawDiagram();
    section.dataset.ready = 'true';
  })();
})();

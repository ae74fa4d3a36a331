// @ts-check
/**
 * The "Try it" panel following a task (the `io.modelcontextprotocol/tasks` extension, see
 * docs/tasks.md): after `tools/call` answers `resultType: "task"`, it shows the task (status,
 * statusMessage, id, poll interval), polls `tasks/get` at the `pollIntervalMs` the server
 * suggests, renders `inputRequests` with the panel's question forms and sends the answers with
 * `tasks/update`, and offers **Cancel task** (`tasks/cancel`). Every exchange goes through the
 * panel's `post`, so the wire log lists it. Loaded after try-it-forms.js, before try-it.js; its one
 * top-level name is `batonTryItTask`. The wire's types are in try-it.js.
 */

/**
 * What try-it.js lends the task view: `step` (the box to draw in), `post`, `question`,
 * `highlight`, `finish`, `restart`, `setPhase(phase, status, exchanges)` and `isCurrent()` (false
 * once the reader restarted: then the view stops quietly).
 * @typedef {object} TryItTaskPanel
 * @property {HTMLElement} step
 * @property {(method: string, params: TryItParams, label: string) => Promise<TryItAnswer | undefined>} post
 * @property {(key: string, request: TryItInputRequest, answer: (response: unknown) => void) => HTMLElement} question
 * @property {(keys: string[]) => void} highlight
 * @property {(answer: TryItOutcome, number: number, kept?: HTMLElement[]) => void} finish
 * @property {() => void} restart
 * @property {(phase: string, status: string, exchanges: number) => void} setPhase
 * @property {() => boolean} isCurrent
 */

/* exported batonTryItTask */
const batonTryItTask = (() => {
  'use strict';
  const { el } = batonTryItForms;
  const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
  /** @param {TryItResult} task */
  const isTerminal = (task) => task.status !== undefined && TERMINAL.has(task.status);
  const LABEL = 'task';
  /** A server may suggest any interval; the page never polls faster than this. */
  const MIN_POLL_MS = 100;

  /**
   * Follows the task `created` until it ends.
   * @param {TryItResult & { taskId: string }} created
   * @param {TryItTaskPanel} panel
   */
  function follow(created, panel) {
    const taskId = created.taskId;
    /**
     * Keys are unique over a task's life (tasks.md): a key answered once is never asked again.
     * @type {Set<string>}
     */
    const answered = new Set();
    let exchanges = 1;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    let ended = false;
    let lastSeen = '';

    const status = el('code', { class: 'try-it-task-status' });
    const message = el('span', { class: 'try-it-task-message' });
    const interval = el('span', { class: 'try-it-task-interval' });
    const history = el('ol', { class: 'try-it-task-log' });
    const cancelButton = el('button', { type: 'button', 'data-action': 'cancel-task', onclick: cancel }, 'Cancel task');
    const questions = el('div', { class: 'try-it-task-questions' });
    // Restart only stops following here; the task goes on on the server. At the end the result has its own.
    const restartButton = el('button', { type: 'button', onclick: panel.restart }, 'Restart');
    const card = el(
      'div',
      { class: 'try-it-task', 'data-task-id': taskId },
      el('h3', {}, 'Task'),
      el(
        'dl',
        {},
        el('dt', {}, 'status'),
        el('dd', {}, status),
        el('dt', {}, 'statusMessage'),
        el('dd', {}, message),
        el('dt', {}, 'taskId'),
        el('dd', {}, el('code', { class: 'try-it-task-id' }, taskId)),
        el('dt', {}, 'polling'),
        el('dd', {}, interval),
      ),
      history,
      el('div', { class: 'try-it-buttons' }, cancelButton, restartButton),
    );
    panel.step.replaceChildren(card, questions);
    show(created);
    schedule(created.pollIntervalMs);

    /** @param {{ pollIntervalMs?: unknown }} task */
    function pollMs(task) {
      const ms = Number(task.pollIntervalMs);
      return Number.isFinite(ms) && ms >= MIN_POLL_MS ? ms : Math.max(MIN_POLL_MS, ms || 1000);
    }

    /** @param {TryItResult} task */
    function show(task) {
      status.textContent = task.status ?? '';
      message.textContent = task.statusMessage === undefined ? '—' : String(task.statusMessage);
      interval.textContent = 'tasks/get every ' + pollMs(task) + ' ms (pollIntervalMs)';
      card.dataset.status = task.status ?? '';
      const seen = task.status + (task.statusMessage === undefined ? '' : ' — ' + task.statusMessage);
      if (seen !== lastSeen) {
        lastSeen = seen;
        history.append(el('li', { 'data-status': task.status }, seen));
      }
      if (isTerminal(task)) cancelButton.disabled = true;
      panel.setPhase(isTerminal(task) ? 'result' : 'task', task.status ?? '', exchanges);
    }

    /** @param {unknown} ms */
    function schedule(ms) {
      clearTimeout(timer);
      if (!ended) timer = setTimeout(poll, pollMs({ pollIntervalMs: ms }));
    }

    /**
     * One exchange; a JSON-RPC or network error ends the panel's view of the task.
     * @param {string} method
     * @param {{ inputResponses?: Record<string, unknown> }} params
     * @returns {Promise<TryItResult | undefined>}
     */
    async function send(method, params) {
      exchanges += 1;
      /** @type {TryItAnswer | undefined} */
      let answer;
      try {
        answer = await panel.post(method, { taskId, ...params }, LABEL);
      } catch (error) {
        answer = {
          error: { message: 'The request failed: ' + (error instanceof Error ? error.message : String(error)) },
        };
      }
      if (!panel.isCurrent() || ended) return undefined;
      if (!answer || answer.error || !answer.result) {
        end(answer || { error: { message: 'No JSON-RPC response.' } });
        return undefined;
      }
      return answer.result;
    }

    async function poll() {
      if (!panel.isCurrent() || ended) return;
      const task = await send('tasks/get', {});
      if (!task) return;
      show(task);
      if (isTerminal(task)) return settle(task);
      const open = Object.entries(task.status === 'input_required' ? task.inputRequests || {} : {}).filter(
        ([key]) => !answered.has(key) && !questions.querySelector('[data-key="' + CSS.escape(key) + '"]'),
      );
      // While the reader answers, polling pauses: the task cannot move on without the answers.
      if (open.length > 0) return ask(open, task);
      schedule(task.pollIntervalMs);
    }

    /**
     * @param {Array<[string, TryItInputRequest]>} open
     * @param {TryItResult} task
     */
    function ask(open, task) {
      panel.highlight(open.map(([key]) => key));
      /** @type {Record<string, unknown>} */
      const answers = {};
      const cards = open.map(([key, request]) =>
        panel.question(key, request, async (response) => {
          answers[key] = response;
          if (Object.keys(answers).length < open.length) return;
          for (const done of Object.keys(answers)) answered.add(done);
          panel.highlight([]);
          panel.setPhase('task', task.status ?? '', exchanges);
          const ack = await send('tasks/update', { inputResponses: answers });
          if (ack) poll();
        }),
      );
      questions.replaceChildren(
        el('h3', {}, open.length === 1 ? 'The task asks one question' : 'The task asks ' + open.length + ' questions'),
        ...cards,
      );
      panel.setPhase('asking', task.status ?? '', exchanges);
    }

    async function cancel() {
      cancelButton.disabled = true;
      clearTimeout(timer);
      questions.replaceChildren();
      panel.highlight([]);
      // An empty acknowledgement, also for a task that already ended; tasks/get tells what happened.
      if (await send('tasks/cancel', {})) poll();
    }

    /** @param {TryItResult} task */
    function settle(task) {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      questions.replaceChildren();
      restartButton.remove();
      const outcome =
        task.status === 'completed'
          ? { result: task.result || {} }
          : task.status === 'failed'
            ? { error: task.error || { message: 'The task failed.' } }
            : { cancelled: 'The task was cancelled (tasks/cancel): its work was stopped.' };
      panel.finish(outcome, exchanges, [card]);
      panel.setPhase('result', task.status ?? '', exchanges);
    }

    /** @param {TryItOutcome} answer */
    function end(answer) {
      ended = true;
      clearTimeout(timer);
      cancelButton.disabled = true;
      questions.replaceChildren();
      restartButton.remove();
      panel.finish(answer, exchanges, [card]);
    }
  }

  return { follow };
})();

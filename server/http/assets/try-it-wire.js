// @ts-check
/**
 * The "Try it" panel's wire: each request as the 2026-07-28 HTTP transport wants it (the `_meta`
 * every request carries; the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`
 * headers; a bearer token when the page asks for one, never cookies), its answer read back as
 * JSON or as an SSE stream, every message shown in the panel's wire log, and progress
 * notifications in the progress box. Loaded after try-it-forms.js, before try-it-task.js and
 * try-it.js; its one top-level name is `batonTryItWire`. The wire's types are in try-it.js.
 */

/* exported batonTryItWire */
const batonTryItWire = (() => {
  'use strict';
  const { el, pretty } = batonTryItForms;
  const PROTOCOL_VERSION = '2026-07-28';
  const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
  const CLIENT_INFO = { name: 'baton-docs-try-it', version: '1.0.0' };

  /**
   * `Mcp-Param-*` values: plain when they are visible ASCII, else the `=?base64?…?=` form.
   * @param {unknown} value
   */
  function headerValue(value) {
    const text = String(value);
    const plain =
      /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !(text.startsWith('=?base64?') && text.endsWith('?='));
    if (plain || text === '') return text;
    const bytes = new TextEncoder().encode(text);
    return '=?base64?' + btoa(String.fromCharCode(...bytes)) + '?=';
  }

  /**
   * A connection to the page's endpoint. `restart()` begins a new run: request ids from 1 again,
   * and a new wire log and progress box, which it returns for the panel to show.
   * @param {TryItData} data
   * @param {() => string} token the bearer token the reader typed ('' for none)
   */
  function connect(data, token) {
    const CAPABILITIES = {
      elicitation: { form: {}, url: {} },
      sampling: {},
      roots: {},
      // Declared only where the tool may run as a task: for any other tool it would change nothing.
      ...(data.task ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    };

    let nextId = 1;
    /** The parts of one run (replaced by every restart). */
    let wire = el('div', {});
    let progressBar = el('progress', {});
    let progressLog = el('ol', {});
    let progressBox = el('div', {});

    /**
     * @param {'in' | 'out'} direction
     * @param {string} title
     * @param {unknown} message
     */
    function logWire(direction, title, message) {
      wire.append(
        el(
          'details',
          { class: 'try-it-message', 'data-direction': direction },
          el('summary', {}, title),
          el('pre', { class: 'code' }, el('code', {}, pretty(message))),
        ),
      );
    }

    /**
     * @param {string} method
     * @param {TryItParams} params
     * @returns {Record<string, string>}
     */
    function headersFor(method, params) {
      const call = 'name' in params ? params : undefined;
      /** @type {Record<string, string>} */
      const headers = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': PROTOCOL_VERSION,
        'Mcp-Method': method,
        // tasks/* name the task (tasks.md, "HTTP Headers"); a task id is plain ASCII.
        'Mcp-Name': 'name' in params ? params.name : params.taskId,
      };
      for (const param of call ? data.headerParams : []) {
        /** @type {unknown} */
        let value = call?.arguments;
        for (const key of param.path) {
          value = value && typeof value === 'object' ? /** @type {Record<string, unknown>} */ (value)[key] : undefined;
        }
        if (value !== undefined && value !== null && typeof value !== 'object') {
          headers['Mcp-Param-' + param.name] = headerValue(value);
        }
      }
      if (data.auth === 'token' && token()) headers.Authorization = 'Bearer ' + token();
      return headers;
    }

    /** @param {TryItProgress} p */
    function showProgress(p) {
      progressBox.hidden = false;
      if (typeof p.total === 'number') {
        progressBar.max = p.total;
        progressBar.value = p.progress ?? 0;
      } else progressBar.removeAttribute('value');
      const text =
        (p.message ? p.message + ' ' : '') + '(' + p.progress + (p.total !== undefined ? '/' + p.total : '') + ')';
      progressLog.append(el('li', {}, text));
    }

    /**
     * Reads an SSE body: notifications as they come, and the response to `id`.
     * @param {Response} response
     * @param {number} id
     * @param {string} label
     * @returns {Promise<TryItAnswer | undefined>}
     */
    async function readEvents(response, id, label) {
      if (!response.body) return undefined;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      /** @type {TryItAnswer | undefined} */
      let answer;
      for (;;) {
        const { value, done } = await reader.read();
        if (value) buffer += value.replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const payload = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''))
            .join('\n');
          if (!payload) continue;
          /** @type {TryItAnswer} */
          const message = JSON.parse(payload);
          if (message.method) {
            logWire('in', label + ' ← ' + message.method + ' (streamed)', message);
            if (message.method === 'notifications/progress' && message.params) showProgress(message.params);
          } else if (message.id === id) answer = message;
        }
        if (done) break;
      }
      return answer;
    }

    /**
     * One exchange: POST a request and answer with the JSON-RPC response (or an HTTP failure).
     * @param {string} method
     * @param {TryItParams} params
     * @param {string} label
     * @returns {Promise<TryItAnswer | undefined>}
     */
    async function post(method, params, label) {
      const id = nextId++;
      const call = method === 'tools/call';
      const message = {
        jsonrpc: '2.0',
        id,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
            'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
            'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
            // A task reports progress in statusMessage; the extension forbids progress notifications.
            ...(call ? { progressToken: 'try-it-' + id } : {}),
          },
        },
      };
      logWire('out', label + ' → ' + method + ' (id ' + id + ')', message);
      if (call) {
        progressBox.hidden = true;
        progressLog.replaceChildren();
      }
      // credentials: 'omit': cookies never ride along; a token is sent only as set in headersFor.
      const response = await fetch(data.endpoint, {
        method: 'POST',
        headers: headersFor(method, params),
        body: JSON.stringify(message),
        credentials: 'omit',
        cache: 'no-store',
      });
      const streamed = (response.headers.get('content-type') || '').startsWith('text/event-stream');
      /** @type {TryItAnswer | undefined} */
      let answer;
      if (streamed) answer = await readEvents(response, id, label);
      else {
        const text = await response.text();
        try {
          answer = JSON.parse(text);
        } catch {
          answer = { httpStatus: response.status, body: text };
        }
      }
      logWire('in', label + ' ← HTTP ' + response.status + (streamed ? ' (SSE)' : ''), answer);
      return answer;
    }

    function restart() {
      nextId = 1;
      progressBar = el('progress', {});
      progressLog = el('ol', { class: 'try-it-progress-log' });
      progressBox = el('div', { class: 'try-it-progress', hidden: true }, progressBar, progressLog);
      wire = el('div', { class: 'try-it-wire' }, el('h3', {}, 'On the wire'));
      return { progressBox, wire };
    }

    return { post, restart };
  }

  return { connect };
})();

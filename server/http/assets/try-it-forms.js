// @ts-check
/**
 * Forms from JSON Schema for the "Try it" panel (try-it.js, loaded after this file): a tool's
 * arguments and each elicitation's `requestedSchema`. Choices (`enum`, or `oneOf`/`anyOf` of
 * `const`) become a select, booleans a checkbox, arrays of choices checkboxes; numbers and strings
 * carry their limits, pattern and format as HTML constraints, so the browser refuses what the
 * schema would; anything else is edited as JSON. Text is always set as text, never as markup.
 *
 * A classic script (no modules: one CSP-friendly file each, loaded in order): its one top-level
 * name, `batonTryItForms`, is what the later scripts use. Checked by `tsc -p tsconfig.assets.json`.
 */

/**
 * A JSON Schema as the panel reads it: the keywords it turns into form controls. It comes from
 * the server (the tool's `inputSchema`, an elicitation's `requestedSchema`), so every one may be
 * missing.
 * @typedef {object} TryItSchema
 * @property {string | string[]} [type]
 * @property {string} [title]
 * @property {string} [description]
 * @property {unknown[]} [enum]
 * @property {unknown[]} [enumNames]
 * @property {TryItSchema[]} [oneOf]
 * @property {TryItSchema[]} [anyOf]
 * @property {unknown} [const]
 * @property {unknown} [default]
 * @property {TryItSchema} [items]
 * @property {number} [minItems]
 * @property {number} [maxItems]
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {number} [exclusiveMinimum]
 * @property {number} [exclusiveMaximum]
 * @property {number} [minLength]
 * @property {number} [maxLength]
 * @property {unknown} [pattern]
 * @property {string} [format]
 * @property {Record<string, TryItSchema | undefined>} [properties]
 * @property {string[]} [required]
 */
/** @typedef {Record<string, unknown>} TryItObject */
/**
 * An attribute: left out when null, undefined or false; a function is an event listener (`onclick`).
 * @typedef {string | number | boolean | null | undefined | ((event: Event) => void)} TryItAttribute
 */
/**
 * A child: a node as it is, anything else as a text node; null and undefined are left out.
 * @typedef {Node | string | number | null | undefined} TryItChild
 */

/* exported batonTryItForms */
const batonTryItForms = (() => {
  'use strict';

  /**
   * `el('p', { class: 'x' }, 'text', child)`: text children become text nodes, never HTML.
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, TryItAttribute>} attributes
   * @param {...(TryItChild | TryItChild[])} children
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (typeof value === 'function') node.addEventListener(name.replace(/^on/, ''), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }
  /** @param {unknown} value */
  const pretty = (value) => JSON.stringify(value, null, 2);

  /** @type {Record<string, string | undefined>} */
  const INPUT_FORMATS = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

  /**
   * Options of a single-choice schema: `enum` (with legacy `enumNames`) or `oneOf`/`anyOf` of `const`.
   * @param {TryItSchema} schema
   * @returns {Array<{ value: unknown, label: string }> | undefined}
   */
  function choices(schema) {
    if (Array.isArray(schema.enum)) {
      return schema.enum.map((value, i) => ({
        value,
        label: String((schema.enumNames && schema.enumNames[i]) || value),
      }));
    }
    const list = schema.oneOf || schema.anyOf;
    if (Array.isArray(list) && list.length > 0 && list.every((option) => option && 'const' in option)) {
      return list.map((option) => ({ value: option.const, label: String(option.title || option.const) }));
    }
    return undefined;
  }

  /** @param {string} pattern */
  function validPattern(pattern) {
    try {
      new RegExp(pattern, 'v');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * One field for one property; returns the element and a reader (undefined: leave it out).
   * @param {string} name
   * @param {TryItSchema} schema
   * @param {boolean} required
   * @param {unknown} initial
   * @returns {{ element: HTMLElement, read: () => unknown, name: string }}
   */
  function field(name, schema, required, initial) {
    const id = 'try-it-' + Math.random().toString(36).slice(2);
    const label = el('label', { for: id }, schema.title || name, required ? ' *' : '');
    const hint = schema.description ? el('small', {}, schema.description) : undefined;
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    const options = choices(schema);
    const itemChoices = type === 'array' && schema.items ? choices(schema.items) : undefined;
    const value = initial !== undefined ? initial : schema.default;
    /** @type {HTMLElement} */
    let input;
    /** @type {() => unknown} */
    let read;
    if (options) {
      const select = el(
        'select',
        { id, name, required },
        required ? undefined : el('option', { value: '' }, '—'),
        options.map((option, i) => el('option', { value: String(i), selected: option.value === value }, option.label)),
      );
      input = select;
      read = () => (select.value === '' ? undefined : options[Number(select.value)]?.value);
    } else if (type === 'boolean') {
      const box = el('input', { id, name, type: 'checkbox', checked: value === true });
      read = () => box.checked;
      return { element: el('div', { class: 'try-it-field try-it-check' }, box, label, hint), read, name };
    } else if (itemChoices) {
      const boxes = itemChoices.map((option) =>
        el('input', { type: 'checkbox', checked: Array.isArray(value) && value.includes(option.value) }),
      );
      input = el(
        'fieldset',
        { id, name },
        itemChoices.map((option, i) => el('label', {}, boxes[i], ' ', option.label)),
      );
      read = () => {
        const picked = itemChoices.filter((_, i) => boxes[i]?.checked).map((option) => option.value);
        const few = typeof schema.minItems === 'number' && picked.length < schema.minItems;
        const many = typeof schema.maxItems === 'number' && picked.length > schema.maxItems;
        // An empty `enum` has no box to carry the message; then there is nothing to pick either.
        boxes[0]?.setCustomValidity(
          few ? `Pick at least ${schema.minItems}.` : many ? `Pick at most ${schema.maxItems}.` : '',
        );
        return picked.length === 0 && !required ? undefined : picked;
      };
    } else if (type === 'number' || type === 'integer') {
      const number = el('input', {
        id,
        name,
        type: 'number',
        required,
        step: type === 'integer' ? '1' : 'any',
        min: schema.minimum !== undefined ? schema.minimum : schema.exclusiveMinimum,
        max: schema.maximum !== undefined ? schema.maximum : schema.exclusiveMaximum,
        value: typeof value === 'number' ? value : undefined,
      });
      input = number;
      read = () => (number.value === '' ? undefined : Number(number.value));
    } else if (type === 'string') {
      const format = schema.format === undefined ? undefined : INPUT_FORMATS[schema.format];
      const text = el('input', {
        id,
        name,
        type: format || 'text',
        required,
        minlength: schema.minLength,
        maxlength: schema.maxLength,
        pattern: typeof schema.pattern === 'string' && validPattern(schema.pattern) ? schema.pattern : undefined,
        value: typeof value !== 'string' ? undefined : format === 'datetime-local' ? value.slice(0, 16) : value,
      });
      input = text;
      read = () => {
        if (text.value === '') return required ? '' : undefined;
        // datetime-local has no zone; the schema's date-time is RFC 3339 with one.
        return format === 'datetime-local' ? new Date(text.value).toISOString() : text.value;
      };
    } else {
      // Objects, mixed arrays, anything else: edited as JSON.
      const json = el('textarea', { id, name, rows: 3, required, class: 'try-it-json' });
      json.value = value === undefined ? '' : pretty(value);
      input = json;
      read = () => {
        json.setCustomValidity('');
        if (json.value.trim() === '') return undefined;
        try {
          return JSON.parse(json.value);
        } catch {
          json.setCustomValidity('This field takes JSON.');
          return undefined;
        }
      };
    }
    return { element: el('div', { class: 'try-it-field' }, label, input, hint), read, name };
  }

  /**
   * Fields for an object schema; `read()` gives the object, or undefined when the form is invalid.
   * @param {HTMLFormElement} form
   * @param {TryItSchema | undefined} schema
   * @param {TryItObject | undefined} initial
   * @returns {() => TryItObject | undefined}
   */
  function objectFields(form, schema, initial) {
    const properties = (schema && schema.properties) || {};
    const required = new Set((schema && schema.required) || []);
    const fields = Object.entries(properties).map(([name, property]) =>
      field(name, property || {}, required.has(name), initial ? initial[name] : undefined),
    );
    for (const f of fields) form.append(f.element);
    return () => {
      /** @type {TryItObject} */
      const values = {};
      for (const f of fields) {
        const value = f.read();
        if (value !== undefined) values[f.name] = value;
      }
      return form.reportValidity() ? values : undefined;
    };
  }

  return { el, pretty, objectFields };
})();

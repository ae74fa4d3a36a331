/**
 * Forms from JSON Schema for the "Try it" panel (try-it.js, loaded after this file): a tool's
 * arguments and each elicitation's `requestedSchema`. Choices (`enum`, or `oneOf`/`anyOf` of
 * `const`) become a select, booleans a checkbox, arrays of choices checkboxes; numbers and strings
 * carry their limits, pattern and format as HTML constraints, so the browser refuses what the
 * schema would; anything else is edited as JSON. Text is always set as text, never as markup.
 */
window.batonTryItForms = (() => {
  'use strict';

  /** `el('p', { class: 'x' }, 'text', child)`: text children become text nodes, never HTML. */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }
  const pretty = (value) => JSON.stringify(value, null, 2);

  const INPUT_FORMATS = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

  /** Options of a single-choice schema: `enum` (with legacy `enumNames`) or `oneOf`/`anyOf` of `const`. */
  function choices(schema) {
    if (Array.isArray(schema.enum)) {
      return schema.enum.map((value, i) => ({ value, label: (schema.enumNames && schema.enumNames[i]) || value }));
    }
    const list = schema.oneOf || schema.anyOf;
    if (Array.isArray(list) && list.length > 0 && list.every((option) => option && 'const' in option)) {
      return list.map((option) => ({ value: option.const, label: option.title || option.const }));
    }
    return undefined;
  }

  function validPattern(pattern) {
    try {
      new RegExp(pattern, 'v');
      return true;
    } catch {
      return false;
    }
  }

  /** One field for one property; returns the element and a reader (undefined: leave it out). */
  function field(name, schema, required, initial) {
    const id = 'try-it-' + Math.random().toString(36).slice(2);
    const label = el('label', { for: id }, schema.title || name, required ? ' *' : '');
    const hint = schema.description ? el('small', {}, schema.description) : undefined;
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    const options = choices(schema);
    const value = initial !== undefined ? initial : schema.default;
    let input;
    let read;
    if (options) {
      input = el(
        'select',
        { id, name, required },
        required ? undefined : el('option', { value: '' }, '—'),
        options.map((option, i) => el('option', { value: String(i), selected: option.value === value }, option.label)),
      );
      read = () => (input.value === '' ? undefined : options[Number(input.value)].value);
    } else if (type === 'boolean') {
      input = el('input', { id, name, type: 'checkbox', checked: value === true });
      read = () => input.checked;
      return { element: el('div', { class: 'try-it-field try-it-check' }, input, label, hint), read, name };
    } else if (type === 'array' && schema.items && choices(schema.items)) {
      const itemChoices = choices(schema.items);
      const boxes = itemChoices.map((option) =>
        el('input', { type: 'checkbox', checked: Array.isArray(value) && value.includes(option.value) }),
      );
      input = el(
        'fieldset',
        { id, name },
        itemChoices.map((option, i) => el('label', {}, boxes[i], ' ', option.label)),
      );
      read = () => {
        const picked = itemChoices.filter((_, i) => boxes[i].checked).map((option) => option.value);
        const few = typeof schema.minItems === 'number' && picked.length < schema.minItems;
        const many = typeof schema.maxItems === 'number' && picked.length > schema.maxItems;
        boxes[0].setCustomValidity(
          few ? `Pick at least ${schema.minItems}.` : many ? `Pick at most ${schema.maxItems}.` : '',
        );
        return picked.length === 0 && !required ? undefined : picked;
      };
    } else if (type === 'number' || type === 'integer') {
      input = el('input', {
        id,
        name,
        type: 'number',
        required,
        step: type === 'integer' ? '1' : 'any',
        min: schema.minimum !== undefined ? schema.minimum : schema.exclusiveMinimum,
        max: schema.maximum !== undefined ? schema.maximum : schema.exclusiveMaximum,
        value: typeof value === 'number' ? value : undefined,
      });
      read = () => (input.value === '' ? undefined : Number(input.value));
    } else if (type === 'string') {
      const format = INPUT_FORMATS[schema.format];
      input = el('input', {
        id,
        name,
        type: format || 'text',
        required,
        minlength: schema.minLength,
        maxlength: schema.maxLength,
        pattern: typeof schema.pattern === 'string' && validPattern(schema.pattern) ? schema.pattern : undefined,
        value: typeof value !== 'string' ? undefined : format === 'datetime-local' ? value.slice(0, 16) : value,
      });
      read = () => {
        if (input.value === '') return required ? '' : undefined;
        // datetime-local has no zone; the schema's date-time is RFC 3339 with one.
        return format === 'datetime-local' ? new Date(input.value).toISOString() : input.value;
      };
    } else {
      // Objects, mixed arrays, anything else: edited as JSON.
      input = el('textarea', { id, name, rows: 3, required, class: 'try-it-json' });
      input.value = value === undefined ? '' : pretty(value);
      read = () => {
        input.setCustomValidity('');
        if (input.value.trim() === '') return undefined;
        try {
          return JSON.parse(input.value);
        } catch {
          input.setCustomValidity('This field takes JSON.');
          return undefined;
        }
      };
    }
    return { element: el('div', { class: 'try-it-field' }, label, input, hint), read, name };
  }

  /** Fields for an object schema; `read()` gives the object, or undefined when the form is invalid. */
  function objectFields(form, schema, initial) {
    const properties = (schema && schema.properties) || {};
    const required = new Set((schema && schema.required) || []);
    const fields = Object.entries(properties).map(([name, property]) =>
      field(name, property || {}, required.has(name), initial ? initial[name] : undefined),
    );
    for (const f of fields) form.append(f.element);
    return () => {
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

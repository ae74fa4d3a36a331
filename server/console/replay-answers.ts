/**
 * The replay page's answer form read back as `inputResponses` (replay-page.ts names its fields):
 * `action:<key>` the action for a question; `answer:["<key>","<property>","<type>"]` one property
 * of an accepted form's content, typed as its schema said; `json:<key>` a sampling or roots reply
 * written whole; or one `inputResponses` field holding them all as JSON, which wins when set.
 * What the engine then checks (the schema, the keys asked) is exactly what a client's answers get.
 */
export type ReadAnswers = { answers: Record<string, unknown> } | { problem: string };

function typed(value: string, type: string): unknown {
  if (type === 'boolean') return value === 'true';
  if ((type === 'number' || type === 'integer') && value.trim() !== '') return Number(value);
  return value;
}

export function readReplayAnswers(form: URLSearchParams): ReadAnswers {
  const whole = form.get('inputResponses')?.trim();
  if (whole) {
    try {
      const parsed: unknown = JSON.parse(whole);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return { problem: 'inputResponses must be a JSON object keyed by question.' };
      }
      return { answers: parsed as Record<string, unknown> };
    } catch {
      return { problem: 'inputResponses is not valid JSON.' };
    }
  }
  // Maps, not objects: a key such as `__proto__` from the form is data, never a prototype.
  const answers = new Map<string, unknown>();
  const contents = new Map<string, Map<string, unknown>>();
  for (const [name, value] of form) {
    if (name.startsWith('action:')) {
      answers.set(name.slice('action:'.length), { action: value });
    } else if (name.startsWith('answer:')) {
      let parts: unknown;
      try {
        parts = JSON.parse(name.slice('answer:'.length));
      } catch {
        return { problem: 'The form could not be read.' };
      }
      if (!Array.isArray(parts) || parts.length !== 3 || !parts.every((part) => typeof part === 'string')) {
        return { problem: 'The form could not be read.' };
      }
      const [key, property, type] = parts as [string, string, string];
      // An empty text field is left out, as a form client leaves out what the user did not fill.
      if (value === '' && type !== 'string') continue;
      if (!contents.has(key)) contents.set(key, new Map());
      contents.get(key)!.set(property, typed(value, type));
    } else if (name.startsWith('json:') && value.trim() !== '') {
      try {
        answers.set(name.slice('json:'.length), JSON.parse(value));
      } catch {
        return { problem: `The reply to ${name.slice('json:'.length)} is not valid JSON.` };
      }
    }
  }
  for (const [key, content] of contents) {
    const answer = answers.get(key) as { action?: string } | undefined;
    if (answer?.action === 'accept') answers.set(key, { action: 'accept', content: Object.fromEntries(content) });
  }
  return { answers: Object.fromEntries(answers) };
}

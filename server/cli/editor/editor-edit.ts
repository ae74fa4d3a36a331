/**
 * The edits the diagram editor makes, as the page sends them, and the strict reading of a page's
 * request body into one: every field is checked, and a field the model does not know (a file
 * path, say) refuses the whole request. Names are plain identifiers, so an edit can never smuggle
 * syntax into the author's file.
 */

export type StatePath = string[];
/** A transition's path inside its state, in the parser's terms (`['on', 'go', 0]`). */
export type TransitionPath = Array<string | number>;
export type AnswerOutcome = 'accept' | 'decline' | 'cancel';

/** What starts a new transition. */
export type Trigger =
  | { type: 'event'; event: string }
  | { type: 'answer'; key: string; outcome: AnswerOutcome }
  /** The state's first invoked actor finished (`invoke.onDone`), or, with no invoke, the state is done. */
  | { type: 'done' }
  /** The state's first invoked actor failed (`invoke.onError`). */
  | { type: 'error' }
  | { type: 'after'; delay: number }
  | { type: 'always' };

export type FieldType = 'string' | 'number' | 'boolean' | 'enum';

/** One field of a form question's answer schema, as the page's form describes it. */
export interface QuestionField {
  name: string;
  type: FieldType;
  required: boolean;
  title?: string;
  /** The choices of an `enum` field. */
  options?: string[];
}

export interface QuestionDraft {
  key: string;
  kind: 'form' | 'url';
  message: string;
  /** The page a `url` question sends the user to. */
  url?: string;
  /** The answer's fields (a `form` question). */
  fields: QuestionField[];
}

export type EditorEdit =
  | { op: 'add-state'; parent: StatePath; name: string }
  | { op: 'rename-state'; path: StatePath; name: string }
  | { op: 'delete-state'; path: StatePath }
  | { op: 'set-final'; path: StatePath; final: boolean }
  | { op: 'set-initial'; path: StatePath }
  | { op: 'add-transition'; from: StatePath; trigger: Trigger; to: StatePath }
  | { op: 'retarget-transition'; from: StatePath; transition: TransitionPath; to: StatePath }
  | { op: 'delete-transition'; from: StatePath; transition: TransitionPath }
  | {
      op: 'add-question';
      parent: StatePath;
      name: string;
      question: QuestionDraft;
      /** Where each answer goes; an outcome left out gets no transition. */
      targets: Partial<Record<AnswerOutcome, StatePath>>;
    }
  | {
      /** A state that invokes one of the machine's actors, by name: `invoke: { src, onDone, onError }`. */
      op: 'add-invoke';
      parent: StatePath;
      name: string;
      src: string;
      /** Where the state goes when the actor finishes (`done`) or fails (`error`); left out, none. */
      targets: Partial<Record<InvokeOutcome, StatePath>>;
    };

export type InvokeOutcome = 'done' | 'error';

/** A request the model refuses: said to the page as it is. */
export class EditRefused extends Error {
  constructor(
    message: string,
    /** `invalid` (400): the request is malformed; `checks` (422): the edited tool fails a check; `stale` (409). */
    readonly reason: 'invalid' | 'checks' | 'stale' | 'unknown-tool' = 'invalid',
  ) {
    super(message);
  }
}

const NAME = /^[A-Za-z_$][\w$-]{0,63}$/;
const KEY = /^[A-Za-z_][\w-]{0,63}$/;
const EVENT = /^[A-Za-z_][\w.:-]{0,127}$/;
const MAX_TEXT = 2000;
const MAX_FIELDS = 32;
const MAX_OPTIONS = 64;

type Json = Record<string, unknown>;

function object(value: unknown, what: string, allowed: readonly string[]): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EditRefused(`${what} must be an object.`);
  const extra = Object.keys(value).filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw new EditRefused(`${what} has fields the editor does not know: ${extra.join(', ')}.`);
  return value as Json;
}

function name(value: unknown, what: string, pattern = NAME): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new EditRefused(`${what} must be a name of letters, digits, _ or - (not starting with a digit), at most 64.`);
  }
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT) {
    throw new EditRefused(`${what} must be a text of 1 to ${MAX_TEXT} characters.`);
  }
  return value;
}

function statePath(value: unknown, what: string, root = true): StatePath {
  if (!Array.isArray(value) || value.length > 16)
    throw new EditRefused(`${what} must be a state path (a list of state names).`);
  const path = value.map((segment, n) => name(segment, `${what}[${n}]`));
  if (!root && path.length === 0) throw new EditRefused(`${what} must name a state, not the root.`);
  return path;
}

function transitionPath(value: unknown, what: string): TransitionPath {
  if (!Array.isArray(value) || value.length < 2 || value.length > 4)
    throw new EditRefused(`${what} must be a transition path.`);
  return value.map((segment, n) => {
    if (typeof segment === 'number' && Number.isInteger(segment) && segment >= 0 && segment < 1000) return segment;
    if (typeof segment === 'string' && EVENT.test(segment)) return segment;
    throw new EditRefused(`${what}[${n}] is not part of a transition path.`);
  });
}

const OUTCOMES: readonly AnswerOutcome[] = ['accept', 'decline', 'cancel'];
const INVOKE_OUTCOMES: readonly InvokeOutcome[] = ['done', 'error'];

function trigger(value: unknown): Trigger {
  const raw = object(value, 'trigger', ['type', 'event', 'key', 'outcome', 'delay']);
  switch (raw.type) {
    case 'event':
      object(raw, 'an event trigger', ['type', 'event']);
      if (typeof raw.event !== 'string' || !EVENT.test(raw.event))
        throw new EditRefused('trigger.event must be an event name.');
      return { type: 'event', event: raw.event };
    case 'answer':
      object(raw, 'an answer trigger', ['type', 'key', 'outcome']);
      if (!OUTCOMES.includes(raw.outcome as AnswerOutcome))
        throw new EditRefused('trigger.outcome must be accept, decline or cancel.');
      return { type: 'answer', key: name(raw.key, 'trigger.key', KEY), outcome: raw.outcome as AnswerOutcome };
    case 'after': {
      object(raw, 'an after trigger', ['type', 'delay']);
      const delay = raw.delay;
      if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 86_400_000) {
        throw new EditRefused('trigger.delay must be whole milliseconds, at most a day.');
      }
      return { type: 'after', delay };
    }
    case 'done':
    case 'error':
    case 'always':
      object(raw, `a ${raw.type} trigger`, ['type']);
      return { type: raw.type };
    default:
      throw new EditRefused('trigger.type must be event, answer, done, error, after or always.');
  }
}

const FIELD_TYPES: readonly FieldType[] = ['string', 'number', 'boolean', 'enum'];

function field(value: unknown, n: number): QuestionField {
  const raw = object(value, `question.fields[${n}]`, ['name', 'type', 'required', 'title', 'options']);
  if (!FIELD_TYPES.includes(raw.type as FieldType)) {
    throw new EditRefused(`question.fields[${n}].type must be string, number, boolean or enum.`);
  }
  const type = raw.type as FieldType;
  const result: QuestionField = {
    name: name(raw.name, `question.fields[${n}].name`, KEY),
    type,
    required: raw.required === true,
  };
  if (raw.title !== undefined && raw.title !== '') result.title = text(raw.title, `question.fields[${n}].title`);
  if (type === 'enum') {
    const options = raw.options;
    if (!Array.isArray(options) || options.length === 0 || options.length > MAX_OPTIONS) {
      throw new EditRefused(`question.fields[${n}]: an enum field needs 1 to ${MAX_OPTIONS} options.`);
    }
    result.options = options.map((option, m) => text(option, `question.fields[${n}].options[${m}]`));
  } else if (raw.options !== undefined) {
    throw new EditRefused(`question.fields[${n}]: only an enum field has options.`);
  }
  return result;
}

function question(value: unknown): QuestionDraft {
  const raw = object(value, 'question', ['key', 'kind', 'message', 'url', 'fields']);
  const key = name(raw.key, 'question.key', KEY);
  const message = text(raw.message, 'question.message');
  if (raw.kind === 'url') {
    const url = text(raw.url, 'question.url');
    if (!/^https?:\/\//.test(url)) throw new EditRefused('question.url must be an http(s) URL.');
    if (raw.fields !== undefined && !(Array.isArray(raw.fields) && raw.fields.length === 0)) {
      throw new EditRefused('a url question has no answer fields: the user answers on the page.');
    }
    return { key, kind: 'url', message, url, fields: [] };
  }
  if (raw.kind !== 'form') throw new EditRefused('question.kind must be form or url.');
  if (raw.url !== undefined) throw new EditRefused('only a url question has a url.');
  if (!Array.isArray(raw.fields) || raw.fields.length === 0 || raw.fields.length > MAX_FIELDS) {
    throw new EditRefused(`a form question needs 1 to ${MAX_FIELDS} answer fields.`);
  }
  const fields = raw.fields.map(field);
  const names = new Set(fields.map((f) => f.name));
  if (names.size !== fields.length) throw new EditRefused('question.fields: each field needs its own name.');
  return { key, kind: 'form', message, fields };
}

/** The edit a page's request body describes, or EditRefused saying what is wrong with it. */
export function readEdit(value: unknown): EditorEdit {
  const op = (value as Json | null)?.op;
  switch (op) {
    case 'add-state': {
      const raw = object(value, 'add-state', ['op', 'parent', 'name']);
      return { op, parent: statePath(raw.parent ?? [], 'parent'), name: name(raw.name, 'name') };
    }
    case 'rename-state': {
      const raw = object(value, 'rename-state', ['op', 'path', 'name']);
      return { op, path: statePath(raw.path, 'path', false), name: name(raw.name, 'name') };
    }
    case 'delete-state': {
      const raw = object(value, 'delete-state', ['op', 'path']);
      return { op, path: statePath(raw.path, 'path', false) };
    }
    case 'set-final': {
      const raw = object(value, 'set-final', ['op', 'path', 'final']);
      if (typeof raw.final !== 'boolean') throw new EditRefused('final must be true or false.');
      return { op, path: statePath(raw.path, 'path', false), final: raw.final };
    }
    case 'set-initial': {
      const raw = object(value, 'set-initial', ['op', 'path']);
      return { op, path: statePath(raw.path, 'path', false) };
    }
    case 'add-transition': {
      const raw = object(value, 'add-transition', ['op', 'from', 'trigger', 'to']);
      return {
        op,
        from: statePath(raw.from, 'from'),
        trigger: trigger(raw.trigger),
        to: statePath(raw.to, 'to', false),
      };
    }
    case 'retarget-transition': {
      const raw = object(value, 'retarget-transition', ['op', 'from', 'transition', 'to']);
      return {
        op,
        from: statePath(raw.from, 'from'),
        transition: transitionPath(raw.transition, 'transition'),
        to: statePath(raw.to, 'to', false),
      };
    }
    case 'delete-transition': {
      const raw = object(value, 'delete-transition', ['op', 'from', 'transition']);
      return { op, from: statePath(raw.from, 'from'), transition: transitionPath(raw.transition, 'transition') };
    }
    case 'add-question': {
      const raw = object(value, 'add-question', ['op', 'parent', 'name', 'question', 'targets']);
      const targets = object(raw.targets ?? {}, 'targets', OUTCOMES);
      return {
        op,
        parent: statePath(raw.parent ?? [], 'parent'),
        name: name(raw.name, 'name'),
        question: question(raw.question),
        targets: Object.fromEntries(
          Object.entries(targets).map(([outcome, path]) => [outcome, statePath(path, `targets.${outcome}`, false)]),
        ),
      };
    }
    case 'add-invoke': {
      const raw = object(value, 'add-invoke', ['op', 'parent', 'name', 'src', 'targets']);
      const targets = object(raw.targets ?? {}, 'targets', INVOKE_OUTCOMES);
      return {
        op,
        parent: statePath(raw.parent ?? [], 'parent'),
        name: name(raw.name, 'name'),
        // A name the machine's setup gives an actor: whether it does is the start-up check's to say.
        src: name(raw.src, 'src'),
        targets: Object.fromEntries(
          Object.entries(targets).map(([outcome, path]) => [outcome, statePath(path, `targets.${outcome}`, false)]),
        ),
      };
    }
    default:
      throw new EditRefused(
        'op must be add-state, rename-state, delete-state, set-final, set-initial, add-transition, retarget-transition, delete-transition, add-question or add-invoke.',
      );
  }
}

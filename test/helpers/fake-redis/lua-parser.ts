/**
 * The parser of the fake Redis's Lua subset (lua-subset.ts runs what it builds): Lua 5.1's
 * statements `local`, assignment, `if`/`elseif`/`else`, `return` and calls, and its expressions
 * with their precedence. A keyword or a construct outside the subset (loops, functions, methods)
 * throws LuaUnsupported at once.
 */

export class LuaUnsupported extends Error {}

export type Node =
  | { t: 'nil' | 'true' | 'false' }
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'name'; name: string }
  | { t: 'index'; obj: Node; key: Node }
  | { t: 'call'; fn: Node; args: Node[] }
  | { t: 'table'; items: Array<{ key?: Node; value: Node }> }
  | { t: 'bin'; op: string; a: Node; b: Node }
  | { t: 'un'; op: string; a: Node };
export type Stat =
  | { t: 'local'; names: string[]; values: Node[] }
  | { t: 'assign'; target: Node; value: Node }
  | { t: 'if'; branches: Array<{ cond: Node; body: Stat[] }>; otherwise: Stat[] }
  | { t: 'return'; values: Node[] }
  | { t: 'expr'; e: Node };

const TOKEN =
  /\s+|--[^\n]*|(\d+(?:\.\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_]\w*)|(==|~=|<=|>=|\.\.|[-+*/%#<>=(){}[\],.;])/y;
const KEYWORDS = new Set([
  'local',
  'if',
  'then',
  'elseif',
  'else',
  'end',
  'return',
  'and',
  'or',
  'not',
  'nil',
  'true',
  'false',
]);
const UNSUPPORTED = new Set(['for', 'while', 'repeat', 'until', 'function', 'do', 'break', 'goto', 'in']);

export function tokenize(source: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw new LuaUnsupported(`fake Redis Lua: cannot read "${source.slice(at, at + 20)}"`);
    const token = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (token === undefined) continue;
    if (UNSUPPORTED.has(token)) throw new LuaUnsupported(`fake Redis Lua: "${token}" is not supported`);
    tokens.push(token);
  }
  return tokens;
}

const BINARY: Array<string[]> = [
  ['or'],
  ['and'],
  ['<', '>', '<=', '>=', '~=', '=='],
  ['..'],
  ['+', '-'],
  ['*', '/', '%'],
];

export class Parser {
  #i = 0;
  constructor(readonly tokens: string[]) {}
  peek(): string | undefined {
    return this.tokens[this.#i];
  }
  next(): string {
    const token = this.tokens[this.#i++];
    if (token === undefined) throw new LuaUnsupported('fake Redis Lua: unexpected end of script');
    return token;
  }
  expect(token: string): void {
    const got = this.next();
    if (got !== token) throw new LuaUnsupported(`fake Redis Lua: expected "${token}", got "${got}"`);
  }
  block(ends: string[]): Stat[] {
    const body: Stat[] = [];
    while (this.peek() !== undefined && !ends.includes(this.peek()!)) {
      if (this.peek() === ';') {
        this.next();
        continue;
      }
      body.push(this.statement());
    }
    return body;
  }
  statement(): Stat {
    const token = this.peek();
    if (token === 'local') {
      this.next();
      const names = [this.name()];
      while (this.peek() === ',') (this.next(), names.push(this.name()));
      const values = this.peek() === '=' ? (this.next(), this.list()) : [];
      return { t: 'local', names, values };
    }
    if (token === 'if') {
      const branches: Array<{ cond: Node; body: Stat[] }> = [];
      let otherwise: Stat[] = [];
      do {
        this.next();
        const cond = this.expression(0);
        this.expect('then');
        branches.push({ cond, body: this.block(['elseif', 'else', 'end']) });
      } while (this.peek() === 'elseif');
      if (this.peek() === 'else') (this.next(), (otherwise = this.block(['end'])));
      this.expect('end');
      return { t: 'if', branches, otherwise };
    }
    if (token === 'return') {
      this.next();
      const ends = [undefined, 'end', 'else', 'elseif', ';'];
      return { t: 'return', values: ends.includes(this.peek()) ? [] : this.list() };
    }
    const e = this.suffixed();
    if (this.peek() === '=') {
      this.next();
      if (e.t !== 'name' && e.t !== 'index') throw new LuaUnsupported('fake Redis Lua: cannot assign to that');
      return { t: 'assign', target: e, value: this.expression(0) };
    }
    if (e.t !== 'call') throw new LuaUnsupported('fake Redis Lua: a statement must be a call or an assignment');
    return { t: 'expr', e };
  }
  name(): string {
    const token = this.next();
    if (!/^[A-Za-z_]\w*$/.test(token) || KEYWORDS.has(token)) {
      throw new LuaUnsupported(`fake Redis Lua: expected a name, got "${token}"`);
    }
    return token;
  }
  list(): Node[] {
    const values = [this.expression(0)];
    while (this.peek() === ',') (this.next(), values.push(this.expression(0)));
    return values;
  }
  expression(level: number): Node {
    if (level === BINARY.length) return this.unary();
    // `..` is right-associative in Lua; the others are left-associative.
    let a = this.expression(level + 1);
    while (BINARY[level]!.includes(this.peek() ?? '')) {
      const op = this.next();
      const b = op === '..' ? this.expression(level) : this.expression(level + 1);
      a = { t: 'bin', op, a, b };
    }
    return a;
  }
  unary(): Node {
    const token = this.peek();
    if (token === 'not' || token === '-' || token === '#') {
      this.next();
      return { t: 'un', op: token, a: this.unary() };
    }
    return this.simple();
  }
  simple(): Node {
    const token = this.peek()!;
    if (token === 'nil' || token === 'true' || token === 'false') return (this.next(), { t: token });
    if (/^\d/.test(token)) return (this.next(), { t: 'num', v: Number(token) });
    if (/^['"]/.test(token)) return (this.next(), { t: 'str', v: unquote(token) });
    if (token === '{') return this.table();
    return this.suffixed();
  }
  table(): Node {
    this.expect('{');
    const items: Array<{ key?: Node; value: Node }> = [];
    while (this.peek() !== '}') {
      if (/^[A-Za-z_]/.test(this.peek()!) && this.tokens[this.#i + 1] === '=') {
        const key: Node = { t: 'str', v: this.name() };
        this.expect('=');
        items.push({ key, value: this.expression(0) });
      } else items.push({ value: this.expression(0) });
      if (this.peek() === ',' || this.peek() === ';') this.next();
      else break;
    }
    this.expect('}');
    return { t: 'table', items };
  }
  suffixed(): Node {
    let e: Node;
    if (this.peek() === '(') {
      this.next();
      e = this.expression(0);
      this.expect(')');
    } else e = { t: 'name', name: this.name() };
    for (;;) {
      const token = this.peek();
      if (token === '.') (this.next(), (e = { t: 'index', obj: e, key: { t: 'str', v: this.name() } }));
      else if (token === '[') {
        this.next();
        e = { t: 'index', obj: e, key: this.expression(0) };
        this.expect(']');
      } else if (token === '(') {
        this.next();
        const args = this.peek() === ')' ? [] : this.list();
        this.expect(')');
        e = { t: 'call', fn: e, args };
      } else return e;
    }
  }
}

function unquote(token: string): string {
  return token.slice(1, -1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}

/**
 * A small Lua interpreter for the fake Redis (fake-redis-server.ts): enough Lua 5.1 to run
 * Baton's own scripts unchanged (`local`, assignment, `if`/`elseif`/`else`, `return`, calls,
 * tables, arithmetic, comparison, `and`/`or`/`not`, `..`, `#`), with Lua's semantics where they
 * differ from JavaScript's: only nil and false are false, comparing a number with a string is an
 * error, arithmetic coerces numeric strings. Anything else (loops, functions, methods) throws
 * `LuaUnsupported`, so a script that outgrows the subset fails its fast test loudly instead of
 * running differently from Redis.
 */
import { LuaUnsupported, Parser, tokenize, type Node, type Stat } from './lua-parser.js';

export { LuaUnsupported };

export class LuaTable {
  readonly entries = new Map<unknown, unknown>();
  get(key: unknown): unknown {
    return this.entries.get(key);
  }
  set(key: unknown, value: unknown): void {
    if (value === undefined) this.entries.delete(key);
    else this.entries.set(key, value);
  }
  /** The sequence 1..n up to the first nil (Lua's `#`, and what Redis turns into an array reply). */
  sequence(): unknown[] {
    const items: unknown[] = [];
    while (this.entries.has(items.length + 1)) items.push(this.entries.get(items.length + 1));
    return items;
  }
  static of(items: unknown[]): LuaTable {
    const table = new LuaTable();
    items.forEach((item, index) => table.set(index + 1, item));
    return table;
  }
}

export type LuaFunction = (...args: unknown[]) => unknown;

export class LuaRuntimeError extends Error {}

export const truthy = (value: unknown): boolean => value !== undefined && value !== false;

function arithmetic(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || Number.isNaN(n))
    throw new LuaRuntimeError('attempt to perform arithmetic on a non-number');
  return n;
}

/** Lua 5.1's `%.14g`: what `tostring` and `..` make of a number. */
export function luaNumberString(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return String(Number(n.toPrecision(14)));
}

function binary(op: string, a: unknown, b: unknown): unknown {
  switch (op) {
    case '==':
      return a === b;
    case '~=':
      return a !== b;
    case '..': {
      const str = (v: unknown) => (typeof v === 'number' ? luaNumberString(v) : v);
      const [x, y] = [str(a), str(b)];
      if (typeof x !== 'string' || typeof y !== 'string') throw new LuaRuntimeError('attempt to concatenate');
      return x + y;
    }
    case '<':
    case '>':
    case '<=':
    case '>=': {
      const comparable =
        (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
      if (!comparable) throw new LuaRuntimeError(`attempt to compare ${typeof a} with ${typeof b}`);
      const [x, y] = [a as number | string, b as number | string];
      return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
    }
  }
  const [x, y] = [arithmetic(a), arithmetic(b)];
  if (op === '+') return x + y;
  if (op === '-') return x - y;
  if (op === '*') return x * y;
  if (op === '/') return x / y;
  return x - Math.floor(x / y) * y;
}

class Returned {
  constructor(readonly value: unknown) {}
}

/** Runs a script against `globals` (KEYS, ARGV, redis, tonumber…); answers what it returns. */
export function runLua(source: string, globals: Record<string, unknown>): unknown {
  const body = new Parser(tokenize(source)).block([]);
  const scopes: Array<Map<string, unknown>> = [new Map()];
  const lookup = (name: string): unknown => {
    for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i]!.has(name)) return scopes[i]!.get(name);
    return globals[name];
  };
  const evaluate = (e: Node): unknown => {
    switch (e.t) {
      case 'nil':
        return undefined;
      case 'true':
      case 'false':
        return e.t === 'true';
      case 'num':
      case 'str':
        return e.v;
      case 'name':
        return lookup(e.name);
      case 'index': {
        const obj = evaluate(e.obj);
        const key = evaluate(e.key);
        if (obj instanceof LuaTable) return obj.get(key);
        if (obj !== null && typeof obj === 'object') return (obj as Record<string, unknown>)[String(key)];
        throw new LuaRuntimeError(`attempt to index a ${obj === undefined ? 'nil' : typeof obj} value`);
      }
      case 'call': {
        const fn = evaluate(e.fn);
        if (typeof fn !== 'function') throw new LuaRuntimeError('attempt to call a non-function');
        return (fn as LuaFunction)(...e.args.map(evaluate));
      }
      case 'table': {
        const table = new LuaTable();
        let position = 1;
        for (const item of e.items) table.set(item.key ? evaluate(item.key) : position++, evaluate(item.value));
        return table;
      }
      case 'un': {
        const a = evaluate(e.a);
        if (e.op === 'not') return !truthy(a);
        if (e.op === '-') return -arithmetic(a);
        if (typeof a === 'string') return a.length;
        if (a instanceof LuaTable) return a.sequence().length;
        throw new LuaRuntimeError('attempt to get length');
      }
      case 'bin': {
        if (e.op === 'and') {
          const a = evaluate(e.a);
          return truthy(a) ? evaluate(e.b) : a;
        }
        if (e.op === 'or') {
          const a = evaluate(e.a);
          return truthy(a) ? a : evaluate(e.b);
        }
        return binary(e.op, evaluate(e.a), evaluate(e.b));
      }
    }
  };
  const execute = (stats: Stat[]): void => {
    for (const stat of stats) {
      if (stat.t === 'local') {
        const values = stat.values.map(evaluate);
        stat.names.forEach((name, i) => scopes[scopes.length - 1]!.set(name, values[i]));
      } else if (stat.t === 'assign') {
        const value = evaluate(stat.value);
        if (stat.target.t === 'index') {
          const obj = evaluate(stat.target.obj);
          if (!(obj instanceof LuaTable)) throw new LuaRuntimeError('attempt to index a non-table');
          obj.set(evaluate(stat.target.key), value);
        } else {
          const name = stat.target.t === 'name' ? stat.target.name : '';
          const scope = [...scopes].reverse().find((s) => s.has(name));
          if (scope) scope.set(name, value);
          else globals[name] = value;
        }
      } else if (stat.t === 'if') {
        const branch = stat.branches.find((b) => truthy(evaluate(b.cond)));
        scopes.push(new Map());
        try {
          execute(branch ? branch.body : stat.otherwise);
        } finally {
          scopes.pop();
        }
      } else if (stat.t === 'return') {
        throw new Returned(stat.values.length > 0 ? evaluate(stat.values[0]!) : undefined);
      } else evaluate(stat.e);
    }
  };
  try {
    execute(body);
    return undefined;
  } catch (outcome) {
    if (outcome instanceof Returned) return outcome.value;
    throw outcome;
  }
}

/**
 * `ClosestName<Bad, Names>`: the member of the union `Names` nearest to `Bad` by edit distance
 * (Levenshtein), computed by the type checker so a misspelled target or event can be named next to
 * its fix in the compile error itself (target-checks.ts). Types only; nothing here runs.
 *
 * Counts are tuple lengths (`[0, 0]` is 2), the only arithmetic the checker does. Every recursion
 * is a tail call, so names of a few dozen characters stay far from the checker's depth limits, and
 * the whole computation is only instantiated when a name is wrong.
 */
type Count = unknown[];
type Inc<A extends Count> = [...A, 0];
type Min<A extends Count, B extends Count> = A extends [...B, ...unknown[]] ? B : A;

type Chars<S extends string, Acc extends string[] = []> = S extends `${infer C}${infer Rest}`
  ? Chars<Rest, [...Acc, C]>
  : Acc;

/** Row 0 of the table: the distance from "" to each prefix of `B` (0, 1, 2, …). */
type FirstRow<B extends string[], Cur extends Count = [], Acc extends Count[] = [[]]> = B extends [
  string,
  ...infer Rest extends string[],
]
  ? FirstRow<Rest, Inc<Cur>, [...Acc, Inc<Cur>]>
  : Acc;

type Cell<A extends string, B extends string, Diag extends Count, Up extends Count, Left extends Count> = Min<
  Min<Inc<Up>, Inc<Left>>,
  A extends B ? Diag : Inc<Diag>
>;

/** The next row for character `A`, from the previous row `Prev`; `Left` is the cell just written. */
type NextRow<
  A extends string,
  B extends string[],
  Prev extends Count[],
  Left extends Count,
  Acc extends Count[],
> = B extends [infer Head extends string, ...infer Rest extends string[]]
  ? Prev extends [infer Diag extends Count, infer Up extends Count, ...infer More extends Count[]]
    ? NextRow<A, Rest, [Up, ...More], Cell<A, Head, Diag, Up, Left>, [...Acc, Cell<A, Head, Diag, Up, Left>]>
    : Acc
  : Acc;

type LastOf<R extends Count[]> = R extends [...Count[], infer L extends Count] ? L : [];

type Distance<
  A extends string[],
  B extends string[],
  Row extends Count[] = FirstRow<B>,
  I extends Count = [],
> = A extends [infer Head extends string, ...infer Rest extends string[]]
  ? Distance<Rest, B, NextRow<Head, B, Row, Inc<I>, [Inc<I>]>, Inc<I>>
  : LastOf<Row>;

/** The union as a tuple, in the checker's order of its members (stable for a given program). */
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type LastMember<U> = UnionToIntersection<U extends unknown ? () => U : never> extends () => infer L ? L : never;
type UnionToTuple<U, Acc extends unknown[] = []> = [U] extends [never]
  ? Acc
  : UnionToTuple<Exclude<U, LastMember<U>>, [LastMember<U>, ...Acc]>;

type Nearest<
  Bad extends string[],
  Names extends unknown[],
  Best extends string,
  BestCount extends Count,
> = Names extends [infer Name extends string, ...infer Rest]
  ? Distance<Bad, Chars<Name>> extends infer D extends Count
    ? BestCount extends [...D, 0, ...unknown[]]
      ? Nearest<Bad, Rest, Name, D>
      : Nearest<Bad, Rest, Best, BestCount>
    : never
  : Best;

/** The name in `Names` nearest to `Bad` (the first of equals); `never` when `Names` is empty. */
export type ClosestName<Bad extends string, Names extends string> =
  UnionToTuple<Names> extends [infer First extends string, ...infer Rest]
    ? Nearest<Chars<Bad>, Rest, First, Distance<Chars<Bad>, Chars<First>>>
    : never;

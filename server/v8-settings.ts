/**
 * The V8 settings a Baton process runs with: `baton` (every command) and `serve()` apply them;
 * an application that embeds `createServer` in its own process decides for itself (call
 * `applyV8Settings()` first thing, or start Node with the same flags).
 *
 * `--no-allocation-site-pretenuring`: V8's allocation-site pretenuring misfires on XState. It
 * takes the sites where every round makes its actor for sites of long-lived objects and allocates
 * them straight in the old generation, where they die; the young objects such an actor points to
 * then survive each scavenge, since a dead old object still counts as a root until the next full
 * collection. Measured under the bench's load (bench/, three-question flow): about 1 MB survived
 * each scavenge (bare Koa: 4 KB) and every scavenge paused the server for 1.7–2.2 ms; with
 * pretenuring off, 0.2 MB and 0.5 ms, and 12–16% less CPU per request. Objects that do live long
 * are still promoted, the ordinary way, by surviving.
 */
import v8 from 'node:v8';

/** The V8 flags `applyV8Settings` sets, for starting Node with them instead (`node --no-allocation-site-pretenuring`). */
export const V8_SETTINGS: readonly string[] = ['--no-allocation-site-pretenuring'];

let applied = false;

/** The settings this process has applied: V8_SETTINGS once applyV8Settings ran, else none. */
export function appliedV8Settings(): readonly string[] {
  return applied ? V8_SETTINGS : [];
}

/** Applies V8_SETTINGS to this process (once); returns them. */
export function applyV8Settings(): readonly string[] {
  if (!applied) {
    for (const flag of V8_SETTINGS) v8.setFlagsFromString(flag);
    applied = true;
  }
  return V8_SETTINGS;
}

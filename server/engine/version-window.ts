/**
 * A range of a dependency's versions that a piece of Baton was tested with, for code that relies
 * on what that dependency does not promise (XState's internals in round/xstate-internals/, Koa's
 * private handleRequest in http/self-answering-koa.ts). Outside its window such code stands aside
 * and the public path runs; package.json declares the same range (a test keeps them equal), so an
 * install outside it is a visible peer or dependency conflict rather than a silent slowdown.
 * How to widen a window: docs/xstate.md, "Upgrading XState and Koa".
 */
import { createRequire } from 'node:module';

/** [lowest tested, first not tested]: `>=lowest <firstUntested`. */
export type VersionWindow = readonly [lowest: string, firstUntested: string];

/** Compares dotted versions: negative when a is lower. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map(Number);
  const pb = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The window as an npm range, as package.json spells it. */
export function windowRange([lowest, firstUntested]: VersionWindow): string {
  return `>=${lowest} <${firstUntested}`;
}

/** Why `version` of `name` is outside the window (prereleases always are), or undefined inside it. */
export function outsideWindow(name: string, version: string, window: VersionWindow): string | undefined {
  const [lowest, firstUntested] = window;
  if (/-/.test(version) || compareVersions(version, lowest) < 0 || compareVersions(version, firstUntested) >= 0) {
    return `${name} ${version} is outside the versions this was tested with (${windowRange(window)})`;
  }
  return undefined;
}

/** The installed version of a package, as its package.json says. */
export function installedVersion(name: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${name}/package.json`) as { version: string }).version;
}

/**
 * The dependency `baton new --project` writes on baton-mcp: wherever this CLI itself came from,
 * so the new project installs the very package that made it.
 *
 * - Run from a checkout (the TypeScript sources are beside it): `file:<checkout>`.
 * - Installed from a tarball (`npx ./baton-mcp-0.1.0.tgz …`, or a project that installed one):
 *   `file:<tarball>`, as the installing project's lockfile recorded it.
 * - Installed from the registry (the lockfile records an https URL), or anything it cannot tell:
 *   `^<version>`, the published release.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';
import { BATON_VERSION } from '../version.js';

export const PACKAGE_NAME = 'baton-mcp';

export type PackageOrigin = 'checkout' | 'tarball' | 'registry';

export interface PackageSpecifier {
  origin: PackageOrigin;
  /** What goes into the project's package.json `dependencies`. */
  specifier: string;
}

function readJson(file: string): any {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A `file:` specifier made absolute against the folder it was written in. */
function absoluteFile(specifier: string, base: string): string {
  const path = specifier.slice('file:'.length);
  return `file:${isAbsolute(path) ? path : resolve(base, path)}`;
}

/** Where the installing project recorded this package from, if it was a local file. */
function installedFrom(root: string): string | undefined {
  if (basename(dirname(root)) !== 'node_modules') return undefined;
  const prefix = dirname(dirname(root));
  const key = `node_modules/${PACKAGE_NAME}`;
  for (const lockfile of [join(prefix, 'node_modules', '.package-lock.json'), join(prefix, 'package-lock.json')]) {
    const resolved = readJson(lockfile)?.packages?.[key]?.resolved;
    if (typeof resolved === 'string') return resolved.startsWith('file:') ? absoluteFile(resolved, prefix) : resolved;
  }
  const declared = readJson(join(prefix, 'package.json'))?.dependencies?.[PACKAGE_NAME];
  return typeof declared === 'string' && declared.startsWith('file:') ? absoluteFile(declared, prefix) : undefined;
}

export function packageSpecifier(root = PACKAGE_ROOT): PackageSpecifier {
  if (existsSync(join(root, 'server', 'cli', 'cli.ts'))) return { origin: 'checkout', specifier: `file:${root}` };
  const resolved = installedFrom(root);
  if (resolved?.startsWith('file:')) return { origin: 'tarball', specifier: resolved };
  return { origin: 'registry', specifier: `^${BATON_VERSION}` };
}

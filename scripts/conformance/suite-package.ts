/**
 * The installed `@modelcontextprotocol/conformance` package: where it is, its CLI entry and its
 * version. It is a devDependency pinned to one exact version, because its `latest` dist-tag lags
 * far behind and alpha releases change checks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const SUITE_PACKAGE = '@modelcontextprotocol/conformance';

export interface SuitePackage {
  dir: string;
  cliPath: string;
  version: string;
}

export function findSuitePackage(projectRoot: string): SuitePackage {
  let manifestPath: string;
  try {
    manifestPath = createRequire(join(projectRoot, 'package.json')).resolve(`${SUITE_PACKAGE}/package.json`);
  } catch {
    throw new Error(`${SUITE_PACKAGE} is not installed. Run \`npm install\` (it is a devDependency).`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    version?: string;
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.conformance;
  if (!bin) throw new Error(`${SUITE_PACKAGE} declares no \`conformance\` bin in ${manifestPath}.`);
  const dir = dirname(manifestPath);
  return { dir, cliPath: join(dir, bin), version: manifest.version ?? 'unknown' };
}

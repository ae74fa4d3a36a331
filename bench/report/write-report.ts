/**
 * Writes the report formatted as the repository's prettier config wants it, so the format check
 * that CI runs over docs/ passes whatever the table widths of a run.
 */
import { writeFileSync } from 'node:fs';
import * as prettier from 'prettier';

export async function writeFormatted(file: string, markdown: string): Promise<void> {
  const config = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(markdown, { ...config, filepath: file }));
}

/** Baton's own version, as published in `serverInfo`. */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const BATON_VERSION: string = (require('../package.json') as { version: string }).version;

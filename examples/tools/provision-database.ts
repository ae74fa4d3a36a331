// The repository's example tool, as the docs' blocks name it (see release.ts).
export { provisionDatabaseTool } from '../../machines/examples/provision-database.js';

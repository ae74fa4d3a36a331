// The repository's own example tools stand in for the tools the docs name, so a block that uses
// one compiles against the real thing.
export { releaseTool } from '../../machines/examples/release.js';

/**
 * Your tools, apart from the examples: `npx baton new <tool>` writes a machine here, its test
 * under test/machines/tools/, and lists it below. They are served next to the examples
 * (`baton serve`, `baton stdio`, `baton dev`); the examples' own tests never depend on this list.
 */
import type { ToolDefinition } from '../../server/engine/index.js';

export const tools: ToolDefinition[] = [
  // baton new: registrations go above this line
];

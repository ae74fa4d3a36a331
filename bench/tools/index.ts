/** The tools the Baton bench target serves: one per benchmark flow, no delays, no invoked work. */
import type { ToolDefinition } from '../../server/engine/index.js';
import { oneQuestionTool } from './one-question.js';
import { parallelTool } from './parallel-questions.js';
import { threeQuestionTool } from './three-question.js';

export const benchTools: ToolDefinition[] = [oneQuestionTool, threeQuestionTool, parallelTool];

export { oneQuestionMachine, oneQuestionTool } from './one-question.js';
export { parallelMachine, parallelTool } from './parallel-questions.js';
export { threeQuestionMachine, threeQuestionTool } from './three-question.js';

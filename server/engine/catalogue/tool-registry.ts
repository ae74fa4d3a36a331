/**
 * The tools a server serves, checked at start-up. Every problem is reported at once, each naming
 * the tool, the state and the fix, so a broken machine never reaches a client.
 */
import { ConfigurationError } from '../configuration-error.js';
import { findHeaderParams, type HeaderParam } from '../../http/header-params.js';
import { JsonSchemaValidator } from '../json-schema-validator.js';
import { machineProblems } from './machine-checks.js';
import { machineWarnings } from './machine-warnings.js';
import { taskProblems } from '../tasks/task-checks.js';
import type { CallToolResult } from '../mcp-shapes.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';

/** Spec, server/tools "Tool names": 1-128 of A-Z a-z 0-9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function toolMachineProblems(tool: ToolDefinition, validator: JsonSchemaValidator): string[] {
  const label = `tool "${tool.name}"`;
  const problems = machineProblems(label, tool.machine, tool.exampleArguments, {
    ...(tool.timeBudgetMs !== undefined ? { timeBudgetMs: tool.timeBudgetMs } : {}),
    // Only a tool that always runs as a task may keep timers across a pause (docs/tasks.md).
    taskMode: tool.task === 'required',
  });
  problems.push(...taskProblems(tool));
  if (tool.exampleArguments && validator.check(tool.inputSchema, tool.exampleArguments)) {
    problems.push(`${label}: exampleArguments do not match inputSchema.`);
  }
  return problems;
}

function schemaProblems(tool: ToolDefinition, validator: JsonSchemaValidator): string[] {
  const where = `tool "${tool.name}"`;
  const schema = tool.inputSchema as Record<string, unknown> | undefined;
  if (!schema || typeof schema !== 'object' || schema.type !== 'object') {
    return [
      `${where}: inputSchema must be a JSON Schema object with "type": "object" at the root (spec, server/tools).`,
    ];
  }
  const problems: string[] = [];
  for (const [label, s] of [
    ['inputSchema', schema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    if (!s) continue;
    try {
      validator.compile(s);
    } catch (error) {
      problems.push(`${where}: ${label} is not a valid JSON Schema: ${(error as Error).message}`);
    }
  }
  return problems;
}

export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition>();
  readonly #headerParams = new Map<string, HeaderParam[]>();
  readonly #validator = new JsonSchemaValidator();
  /** Author traps found at start-up (docs/xstate.md): valid machines, logged as warnings. */
  readonly warnings: string[] = [];

  constructor(tools: ToolDefinition[]) {
    const problems: string[] = [];
    for (const tool of tools) {
      if (!TOOL_NAME.test(tool.name ?? '')) {
        problems.push(`tool "${tool.name}": names are 1-128 characters of A-Z a-z 0-9 _ - . (spec, server/tools).`);
      }
      if (this.#tools.has(tool.name)) problems.push(`tool "${tool.name}": defined twice; tool names must be unique.`);
      if (!tool.description) problems.push(`tool "${tool.name}": give it a description; clients and models read it.`);
      const schemaIssues = schemaProblems(tool, this.#validator);
      const headers = findHeaderParams(tool.inputSchema);
      schemaIssues.push(...headers.problems.map((problem) => `tool "${tool.name}": ${problem}`));
      problems.push(...schemaIssues);
      if (headers.params.length > 0) this.#headerParams.set(tool.name, headers.params);
      if (schemaIssues.length === 0) problems.push(...toolMachineProblems(tool, this.#validator));
      if (tool.machine?.root) this.warnings.push(...machineWarnings(`tool "${tool.name}"`, tool.machine));
      this.#tools.set(tool.name, tool);
    }
    if (problems.length > 0) {
      throw new ConfigurationError(`Baton cannot serve these tools:\n  - ${problems.join('\n  - ')}`);
    }
  }

  /** Tools in a deterministic order (spec, server/tools: SHOULD be deterministic). */
  list(): ToolDefinition[] {
    return [...this.#tools.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name);
  }

  /** The tool's parameters that HTTP clients mirror into `Mcp-Param-*` headers (none: empty). */
  headerParams(name: string): readonly HeaderParam[] {
    return this.#headerParams.get(name) ?? [];
  }

  /**
   * Undefined when a result honours the tool's outputSchema (spec, server/tools: structured
   * results MUST conform), else what is wrong. Tool errors are not held to it.
   */
  checkResult(tool: ToolDefinition, result: CallToolResult): string | undefined {
    if (!tool.outputSchema || result.isError) return undefined;
    if (result.structuredContent === undefined) return 'it has no structuredContent';
    return this.#validator.check(tool.outputSchema, result.structuredContent);
  }

  /** Undefined when the arguments fit the tool's inputSchema, else a reason for the model. */
  checkArguments(tool: ToolDefinition, args: unknown): string | undefined {
    return this.#validator.check(tool.inputSchema, args);
  }
}

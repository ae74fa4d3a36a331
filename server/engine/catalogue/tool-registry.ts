/** The tools a server serves, checked at start-up (catalogue.ts) against their machines and schemas. */
import { findHeaderParams, type HeaderParam } from './header-param-schema.js';
import { JsonSchemaValidator } from '../json-schema-validator.js';
import { Catalogue, PRIMITIVE_NAME } from './catalogue.js';
import { catalogueFieldProblems } from './catalogue-field-checks.js';
import { machineProblems } from './machine-checks.js';
import { machineWarnings } from './machine-warnings.js';
import { taskProblems } from '../tasks/task-checks.js';
import { versionProblems } from '../versions/version-checks.js';
import { overlongArgument } from './overlong-arguments.js';
import type { CallToolResult } from '../mcp-shapes.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';

function toolMachineProblems(tool: ToolDefinition, validator: JsonSchemaValidator): string[] {
  const label = `tool "${tool.name}"`;
  const problems = machineProblems(label, tool.machine, tool.exampleArguments, {
    timeBudgetMs: tool.timeBudgetMs,
    // Only a tool that always runs as a task may keep timers across a pause (docs/tasks.md).
    taskMode: tool.task === 'required',
  });
  problems.push(...taskProblems(tool));
  // Kept versions still run flows to their end: checked as the current machine is.
  problems.push(...versionProblems(tool));
  if (tool.exampleArguments && validator.check(tool.inputSchema, tool.exampleArguments)) {
    problems.push(`${label}: exampleArguments do not match inputSchema.`);
  }
  for (const example of tool.examples ?? []) {
    if (example.arguments && validator.check(tool.inputSchema, example.arguments)) {
      problems.push(`${label}: the arguments of example "${example.title}" do not match inputSchema.`);
    }
  }
  return problems;
}

function schemaProblems(tool: ToolDefinition, validator: JsonSchemaValidator): string[] {
  const schema = tool.inputSchema as Record<string, unknown> | undefined;
  if (!schema || typeof schema !== 'object' || schema.type !== 'object') {
    return ['inputSchema must be a JSON Schema object with "type": "object" at the root (spec, server/tools).'];
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
      problems.push(`${label} is not a valid JSON Schema: ${(error as Error).message}`);
    }
  }
  return [...problems, ...findHeaderParams(schema).problems];
}

export class ToolRegistry {
  readonly #catalogue: Catalogue<ToolDefinition>;
  readonly #headerParams = new Map<string, readonly HeaderParam[]>();
  readonly #validator = new JsonSchemaValidator();
  /** Author traps found at start-up (docs/xstate.md): valid machines, logged as warnings. */
  readonly warnings: string[] = [];

  constructor(tools: ToolDefinition[]) {
    const validator = this.#validator;
    this.#catalogue = new Catalogue<ToolDefinition>(
      {
        plural: 'tools',
        keyOf: (tool) => tool.name,
        labelOf: (tool) => `tool "${tool.name}"`,
        problemsOf: (tool) => {
          const own: string[] = [];
          if (!PRIMITIVE_NAME.test(tool.name ?? '')) {
            own.push('names are 1-128 characters of A-Z a-z 0-9 _ - . (spec, server/tools).');
          }
          if (!tool.description) own.push('give it a description; clients and models read it.');
          const schemaIssues = schemaProblems(tool, validator);
          own.push(...schemaIssues);
          const problems = own.map((problem) => `tool "${tool.name}": ${problem}`);
          problems.push(...catalogueFieldProblems(`tool "${tool.name}"`, tool));
          if (schemaIssues.length === 0) problems.push(...toolMachineProblems(tool, validator));
          return problems;
        },
      },
      tools,
    );
    for (const tool of tools) {
      if (tool.machine?.root) this.warnings.push(...machineWarnings(`tool "${tool.name}"`, tool.machine));
      const { params } = findHeaderParams(tool.inputSchema);
      if (params.length > 0) this.#headerParams.set(tool.name, params);
    }
  }

  /** Tools in a deterministic order (spec, server/tools: SHOULD be deterministic). */
  list(): ToolDefinition[] {
    return this.#catalogue.list();
  }

  get(name: string): ToolDefinition | undefined {
    return this.#catalogue.get(name);
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

  /**
   * Undefined when the arguments fit the tool's inputSchema, else a reason for the model. Strings
   * without a `maxLength` are bounded too (overlong-arguments.ts).
   */
  checkArguments(tool: ToolDefinition, args: unknown): string | undefined {
    return this.#validator.check(tool.inputSchema, args, 'arguments') ?? overlongArgument(tool.inputSchema, args);
  }
}

/**
 * Tool parameters mirrored into HTTP headers (spec, transports/streamable-http "Custom Headers
 * from Tool Parameters"): a property of the inputSchema marked `"x-mcp-header": "Region"` is sent
 * by HTTP clients as `Mcp-Param-Region`, so intermediaries can route on it without reading the
 * body, and the server must check the header against the body.
 *
 * This reads the declarations from the schema. The definition rules are checked at start-up,
 * because a client silently drops a tool that breaks them (a tool the author tested over stdio
 * would just vanish over HTTP). Matching headers against the body is HTTP's (http/header-params.ts).
 */
import { isRecord } from '../plain-objects.js';

export interface HeaderParam {
  /** The name after `Mcp-Param-`, as declared (header names compare case-insensitively). */
  name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  path: string[];
  type: 'string' | 'integer' | 'boolean';
}

/** RFC 9110 `tchar`: the characters of a header field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const KEYWORD = 'x-mcp-header';
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** JSON Schema keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** The annotated parameters of an inputSchema, and what is wrong with any of them. */
export function findHeaderParams(inputSchema: unknown): { params: HeaderParam[]; problems: string[] } {
  const params: HeaderParam[] = [];
  const problems: string[] = [];
  // Annotations reached through `properties` chains alone; every other one is misplaced.
  const allowed = new Set<object>();
  collect(inputSchema, [], params, problems, allowed);
  for (const misplaced of misplacedAnnotations(inputSchema, allowed)) {
    problems.push(
      `"${KEYWORD}" at ${misplaced} is not reachable through "properties" alone (not through items, anyOf/oneOf/allOf/not, if/then/else or $ref).`,
    );
  }
  const seen = new Map<string, string>();
  for (const param of params) {
    const key = param.name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined)
      problems.push(`"${KEYWORD}": "${param.name}" is used twice (also by ${other}); header names ignore case.`);
    else seen.set(key, param.path.join('.'));
  }
  return { params, problems };
}

function collect(
  schema: unknown,
  path: string[],
  params: HeaderParam[],
  problems: string[],
  allowed: Set<object>,
): void {
  if (!isRecord(schema) || !isRecord(schema.properties)) return;
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    const here = [...path, key];
    if (KEYWORD in property) {
      allowed.add(property);
      const problem = definitionProblem(property);
      if (problem) problems.push(`"${KEYWORD}" on ${here.join('.')}: ${problem}`);
      else params.push({ name: property[KEYWORD] as string, path: here, type: property.type as HeaderParam['type'] });
    }
    collect(property, here, params, problems, allowed);
  }
}

function definitionProblem(property: Record<string, unknown>): string | undefined {
  const name = property[KEYWORD];
  if (typeof name !== 'string' || name === '') return 'the header name must be a non-empty string.';
  if (!TOKEN.test(name)) return `"${name}" is not a valid header name (RFC 9110 token characters only).`;
  if (typeof property.type !== 'string' || !PRIMITIVE.has(property.type)) {
    return 'only a parameter of type "string", "integer" or "boolean" can be mirrored into a header.';
  }
  return undefined;
}

/** Paths of every annotation in the schema that `collect` did not reach. */
function misplacedAnnotations(schema: unknown, allowed: Set<object>, path = 'inputSchema'): string[] {
  if (Array.isArray(schema))
    return schema.flatMap((item, index) => misplacedAnnotations(item, allowed, `${path}[${index}]`));
  if (!isRecord(schema)) return [];
  const found = KEYWORD in schema && !allowed.has(schema) ? [path] : [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === KEYWORD) continue;
    if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      // A map of names to schemas: a name may be anything, "x-mcp-header" included.
      for (const [name, sub] of Object.entries(value)) {
        found.push(...misplacedAnnotations(sub, allowed, `${path}.${key}.${name}`));
      }
    } else found.push(...misplacedAnnotations(value, allowed, `${path}.${key}`));
  }
  return found;
}

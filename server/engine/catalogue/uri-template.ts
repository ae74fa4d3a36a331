/**
 * RFC 6570 level-1 URI templates (`test://items/{id}/data`): enough to match a URI against a
 * template and read its variables. A variable matches one path segment (no `/`).
 */
export interface UriTemplate {
  template: string;
  variables: string[];
  match(uri: string): Record<string, string> | undefined;
}

export function parseUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  const pattern = template
    .split(/(\{[A-Za-z0-9_]+\})/)
    .map((part) => {
      const variable = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
      if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      variables.push(variable[1]!);
      return '([^/?#]+)';
    })
    .join('');
  const regex = new RegExp(`^${pattern}$`);
  return {
    template,
    variables,
    match(uri) {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      try {
        variables.forEach((name, index) => {
          values[name] = decodeURIComponent(found[index + 1]!);
        });
      } catch {
        // A malformed percent-escape names no resource of this template.
        return undefined;
      }
      return values;
    },
  };
}

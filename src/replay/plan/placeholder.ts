/**
 * A placeholder: `{{ name }}` or `{{ name | filter }}`. The words that end or branch a Go template
 * (`docker inspect --format '{{range .Mounts}}{{.Source}} {{end}}'`) are the template's, never a name.
 */
export const PLACEHOLDER_SOURCE = String.raw`\{\{\s*(?!(?:end|else|break|continue)\s*\}\})([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|\s*([a-z_]+)\s*)?\}\}`;

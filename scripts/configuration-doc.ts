import { isDeepStrictEqual, parseEnv } from 'node:util';

/** One variable as docs/configuration.md documents it: a `### \`NAME\`` heading and its four lines. */
export interface DocumentedVariable {
  name: string;
  /** The line the heading is on. */
  line: number;
  type?: string;
  default?: string;
  rule?: string;
  example?: string;
}

/** Every `### \`NAME\`` section of the page, with its `Type:`, `Default:`, `Rule:` and `Example:` lines. */
export function documentedVariables(markdown: string): DocumentedVariable[] {
  const variables: DocumentedVariable[] = [];
  let current: DocumentedVariable | undefined;
  let field: Field | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (/^#{1,6}\s/.test(text)) {
      const name = /^###\s+`([A-Z][A-Z0-9_]*)`\s*$/.exec(text)?.[1];
      current = name ? { name, line: index + 1 } : undefined;
      if (current) variables.push(current);
      field = undefined;
      return;
    }
    if (!current) return;
    const start = /^(Type|Default|Rule|Example):\s*(.*)$/.exec(text);
    if (start) {
      field = (start[1] ?? '').toLowerCase() as Field;
      current[field] = withoutBreak(start[2] ?? '');
    } else if (field && text.trim() !== '') {
      // A field's text goes on over the following lines until a blank line.
      current[field] = `${current[field] ?? ''} ${withoutBreak(text)}`.trim();
    } else {
      field = undefined;
    }
  });
  return variables;
}

type Field = 'type' | 'default' | 'rule' | 'example';

/** A field's text without the markdown hard line break (`\` at the end of a line). */
function withoutBreak(text: string): string {
  return text.replace(/\\$/, '').trim();
}

/** How one set of variables is read. Both functions throw on a value the schema refuses. */
export interface VariableReader {
  /** The documented names this reader owns. */
  names: readonly string[];
  /** The value the variable's own rule makes of `raw` (`undefined`: unset). */
  read(name: string, raw: string | undefined): unknown;
  /** The whole configuration the server builds with the variable at `raw`: defaults applied after parsing count too. */
  applied(name: string, raw: string | undefined): unknown;
}

/**
 * What docs/configuration.md gets wrong about the variables the readers read, one message per problem:
 *
 * - every variable a reader owns has exactly one section, and no section names a variable no reader owns;
 * - each section has its type, default, rule and example;
 * - the example is one `NAME=value` line of an env file (its own name), and the reader accepts its value;
 * - a default written as a literal (`` `4000` ``) reads as the unset variable does; `none …` reads as nothing (absent,
 *   or an empty list or map); `required …` is refused unset; `derived: …` and prose are not checked here.
 */
export function configurationProblems(markdown: string, readers: readonly VariableReader[]): string[] {
  const problems: string[] = [];
  const documented = documentedVariables(markdown);
  const owner = new Map(readers.flatMap((reader) => reader.names.map((name) => [name, reader] as const)));
  const seen = new Set<string>();
  for (const variable of documented) {
    const where = `line ${variable.line}: ${variable.name}`;
    if (seen.has(variable.name)) problems.push(`${where} is documented twice`);
    seen.add(variable.name);
    const reader = owner.get(variable.name);
    if (!reader) {
      problems.push(`${where} is read by no schema`);
      continue;
    }
    for (const field of ['type', 'default', 'rule', 'example'] as const) {
      if (!variable[field]) problems.push(`${where} has no ${capital(field)}: line`);
    }
    if (variable.example) problems.push(...exampleProblems(where, variable.name, variable.example, reader));
    if (variable.default) problems.push(...defaultProblems(where, variable.name, variable.default, reader));
  }
  for (const name of owner.keys()) if (!seen.has(name)) problems.push(`${name} is not documented`);
  return problems;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function exampleProblems(where: string, name: string, example: string, reader: VariableReader): string[] {
  const line = /^`([^`]+)`$/.exec(example)?.[1];
  if (!line) return [`${where}'s example is not one \`NAME=value\` in backticks`];
  const values = parseEnv(line);
  const keys = Object.keys(values);
  if (keys.length !== 1 || keys[0] !== name)
    return [`${where}'s example sets ${keys.join(', ') || 'nothing'}`];
  try {
    reader.read(name, values[name]);
    return [];
  } catch (error) {
    return [`${where}'s example is refused: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function defaultProblems(where: string, name: string, text: string, reader: VariableReader): string[] {
  let unset: unknown;
  try {
    unset = reader.read(name, undefined);
  } catch {
    return /^required\b/.test(text) ? [] : [`${where} is refused unset, but not documented as required`];
  }
  if (/^required\b/.test(text)) return [`${where} is documented as required, but reads unset`];
  if (/^none\b/.test(text)) {
    const empty =
      unset === undefined ||
      (Array.isArray(unset) && unset.length === 0) ||
      (typeof unset === 'object' && unset !== null && Object.keys(unset).length === 0);
    return empty ? [] : [`${where} is documented with no default, but reads ${JSON.stringify(unset)} unset`];
  }
  const literal = /^`([^`]*)`(?:\s|$)/.exec(text)?.[1];
  if (literal === undefined) return [];
  try {
    if (isDeepStrictEqual(reader.applied(name, literal), reader.applied(name, undefined))) return [];
  } catch {}
  return [`${where}'s default \`${literal}\` is not the one the code applies`];
}

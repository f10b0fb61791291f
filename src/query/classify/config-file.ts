import type { Framework } from './names.js';
import { optionValue, type ClassifyContext, type RuleMatch } from './view.js';

/**
 * Launches whose settings live in a file: a server that reads a config file from its working
 * directory or its container (TabbyAPI's `config.yml`, the rules' `options.config_files`), or one
 * given `--config FILE`. The file's `key: value` lines that name one of the stack's options
 * (`cache_mode: Q4` is `--cache_mode Q4`, `model_name: X` its model) are part of that launch's
 * setting, as the file stood when it ran: edited between two launches, they tell them apart. In a
 * setting a file's option is written `key: value`, as the file spells it.
 */
const CONFIG_FLAGS = ['--config', '--config-file', '--config_file'];

/** The option of a stack a config file's key names (`cache_mode` → `--cache_mode`), or null. */
export function flagOfKey(key: string, framework: Framework | null): string | null {
  if (!framework) return null;
  const known = [...framework.modelOptions, ...framework.shapeOptions.flatMap(([, names]) => names), ...framework.definingOptions];
  const spellings = [`--${key}`, `--${key.replace(/_/g, '-')}`, `--${key.replace(/-/g, '_')}`];
  return spellings.find((s) => known.includes(s)) ?? null;
}

/** The scalar `key: value` lines of a YAML file (or `"key": value,` of a JSON one), the last of each key winning. */
function scalarSettings(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z][\w.-]*):[ \t]+([^#\n]*?)\s*(?:#.*)?$/.exec(line) ?? /^\s*"([A-Za-z][\w.-]*)"\s*:\s*("[^"]*"|[\w.+-]+)\s*,?\s*$/.exec(line);
    const value = m?.[2]?.replace(/^(["'])(.*)\1$/, '$2');
    if (!m || !value || /^[[{|>&*]/.test(value)) continue;
    settings.set(m[1] as string, value);
  }
  return settings;
}

/** A launch's match with the settings of the config file it reads; options typed on the command line win over the file. */
export function withConfigFile(match: RuleMatch, argv: readonly string[], cwd: string | null, framework: Framework | null, context: ClassifyContext | null): RuleMatch {
  if (match.kind !== 'serve' || !framework || !context) return match;
  const explicit = optionValue(argv, CONFIG_FLAGS);
  const text = context.configFileText(explicit ? [explicit] : framework.configFiles, cwd);
  if (text === null) return match;
  const typed = (flag: string): boolean => argv.some((a) => a === flag || a.startsWith(`${flag}=`));
  let model = match.model ?? null;
  const shape: string[] = [];
  const options: string[] = [];
  for (const [key, value] of scalarSettings(text)) {
    const flag = flagOfKey(key, framework);
    // A container's launch carries its server's match, the file read in already: each setting once.
    const read = (field: string | null | undefined): boolean => (field ?? '').split(/(?<=\S) (?=[A-Za-z][\w.-]*: )/).some((part) => part.startsWith(`${key}: `));
    if (!flag || typed(flag) || read(match.config) || read(match.options)) continue;
    if (framework.modelOptions.includes(flag)) model ??= value;
    else if (framework.shapeOptions.some(([, names]) => names.includes(flag))) shape.push(`${key}: ${value}`);
    else options.push(`${key}: ${value}`);
  }
  const joined = (first: string | null | undefined, more: string[]): string | null => [first, ...more].filter(Boolean).join(' ') || null;
  return { ...match, model, config: joined(match.config, shape), options: joined(match.options, options) };
}

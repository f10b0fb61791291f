import type { ActionKind } from '../classify/kinds.js';
import type { LauncherRule, RuleFile, SignatureRule, VersionRule } from './schema.js';

/**
 * Rule files compiled into what the classifier, the fact reader and the tree consume: regexes
 * built once, signatures in one order (lower priority number first), frameworks in load order.
 */

export type SignatureEffect = SignatureRule['effect'];

export interface CompiledSignature {
  name: string;
  file: string;
  effect: SignatureEffect;
  decides: readonly ActionKind[];
  pattern: RegExp;
  /** Lower-cased keywords: a line is tried only when it holds one. */
  keywords: readonly string[];
  labels: readonly string[];
  priority: number;
  generic: boolean;
}

export interface CompiledComponent {
  component: string;
  label: string;
  pattern: RegExp;
  inReason: VersionRule['in_reason'];
  file: string;
  /** From the shared file rather than a framework's: listed after the framework's own versions. */
  shared: boolean;
}

export interface CompiledLauncher {
  program: RegExp | null;
  subcommand: string | null;
  module: RegExp | null;
  script: RegExp | null;
  modelPosition: number | null;
}

export interface Framework {
  id: string;
  precedence: number;
  kind: 'framework' | 'service';
  label: string;
  file: string;
  /** Each matches the framework's name inside an image reference, a package name or prose. */
  names: readonly RegExp[];
  packages: readonly string[];
  images: readonly string[];
  launchers: readonly CompiledLauncher[];
  /** Build steps (`trtllm-build`, `quantize.py`, `mlc_llm convert_weight`): the same shape of match as launchers. */
  builders: readonly CompiledLauncher[];
  /** Programs that run the model once without serving it (`llama-bench`): probes of the build, the same shape of match as launchers. */
  probers: readonly CompiledLauncher[];
  /** Candidates are named by the model they run (`ollama qwen2.5-coder:32b`). */
  candidateByModel: boolean;
  modelOptions: readonly string[];
  servedNameOptions: readonly string[];
  portOptions: readonly string[];
  /** Shape flags by label (`--tp` → [`--tensor-parallel-size`, `-tp`]). */
  shapeOptions: readonly (readonly [string, readonly string[]])[];
  /** Options that change what the deployment is, so a change of one on a working server is another approach. */
  definingOptions: readonly string[];
  /** Options whose value names a preset (a NIM profile): an approach setting one is called by the value. */
  presetOptions: readonly string[];
  /** File names it reads its settings from in its working directory or container (`config.yml`). */
  configFiles: readonly string[];
  healthPaths: readonly string[];
  defaultPort: number | null;
}

export interface RuleSource {
  id: string;
  kind: RuleFile['kind'];
  label: string;
  file: string;
  /** A built-in file this one replaces (same id). */
  overrides: string | null;
}

export interface RuleSet {
  frameworks: readonly Framework[];
  signatures: readonly CompiledSignature[];
  components: readonly CompiledComponent[];
  sources: readonly RuleSource[];
  /** Changes whenever any loaded rule file's content does (trees derived with another are stale). */
  fingerprint: string;
}

const VERSION = String.raw`v?(\d+\.\d+(?:[\w.+-]*\w)?)`;
/** `name: 1.2`, `name==1.2`, `name 1.2`, `name version 1.2` — but not an image tag (`vllm:25.11`). */
const SEPARATOR = String.raw`(?::\s+|==?\s*|\s+)`;
const START = String.raw`(?<![/\w.:-])`;

export function expandVersionPattern(source: string): string {
  return source.replaceAll('{START}', START).replaceAll('{SEP}', SEPARATOR).replaceAll('{VERSION}', VERSION);
}

function wholeName(source: string): RegExp {
  return new RegExp(`^(?:${source})$`);
}

function compileLauncher(launcher: LauncherRule): CompiledLauncher {
  return {
    program: launcher.program ? wholeName(launcher.program) : null,
    subcommand: launcher.subcommand ?? null,
    module: launcher.module ? wholeName(launcher.module) : null,
    script: launcher.script ? new RegExp(`(?:^|/)(?:${launcher.script})$`) : null,
    modelPosition: launcher.model_position ?? null,
  };
}

function namePatterns(file: RuleFile): RegExp[] {
  return file.names.map((n) => (typeof n === 'string' ? new RegExp(n, 'i') : new RegExp(n.pattern, n.case_sensitive ? '' : 'i')));
}

/** Whether a text (an image reference, a package, a program, a word of prose) names this framework. */
export function namesFramework(framework: Framework, text: string): boolean {
  return framework.names.some((pattern) => pattern.test(text));
}

export function compileFramework(file: RuleFile, path: string): Framework {
  const kind = file.kind === 'generic' ? 'framework' : file.kind;
  const MODEL_DEFAULTS = ['--model', '--model-path', '--model-id', '--model_path', '-m'];
  return {
    id: file.id,
    precedence: file.precedence,
    kind,
    label: file.label,
    file: path,
    names: namePatterns(file),
    packages: file.packages,
    images: file.images,
    launchers: file.launch.map(compileLauncher),
    builders: file.build.map(compileLauncher),
    // A rules cache written before `probe` existed holds files without it.
    probers: (file.probe ?? []).map(compileLauncher),
    candidateByModel: file.candidate_by_model,
    modelOptions: file.options.model.length > 0 ? file.options.model : MODEL_DEFAULTS,
    servedNameOptions: file.options.served_name,
    portOptions: file.options.port.length > 0 ? file.options.port : ['--port'],
    shapeOptions: Object.entries(file.options.shape),
    definingOptions: file.options.defining,
    // A rules cache written before `presets` existed holds files without it.
    presetOptions: file.options.presets ?? [],
    configFiles: file.options.config_files ?? [],
    healthPaths: file.health.paths,
    defaultPort: file.health.port,
  };
}

export function compileSignature(rule: SignatureRule, path: string): CompiledSignature {
  return {
    name: rule.id,
    file: path,
    effect: rule.effect,
    decides: rule.decides,
    pattern: new RegExp(rule.pattern, rule.case_sensitive ? '' : 'i'),
    keywords: rule.keywords.map((k) => k.toLowerCase()),
    labels: typeof rule.label === 'string' ? [rule.label] : rule.label,
    priority: rule.priority,
    generic: rule.generic,
  };
}

export function compileComponent(rule: VersionRule, path: string, shared: boolean): CompiledComponent {
  return {
    component: rule.component,
    label: rule.label,
    pattern: new RegExp(expandVersionPattern(rule.pattern), rule.case_sensitive ? '' : 'i'),
    inReason: rule.in_reason,
    file: path,
    shared,
  };
}

const clip = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text).trim();

/** The first label whose `{N}` groups all matched, with its placeholders filled. */
export function renderLabel(labels: readonly string[], match: RegExpExecArray): string {
  for (const template of labels) {
    let complete = true;
    const text = template.replace(/\{(seconds:)?(\d+|line|match)\}/g, (_, seconds: string | undefined, key: string) => {
      if (key === 'line') return match.input.trim();
      if (key === 'match') return match[0];
      const value = match[Number(key)];
      if (value === undefined || value === '') {
        complete = false;
        return '';
      }
      return seconds ? String(Number(value) / 1000) : value;
    });
    if (complete) return clip(text);
  }
  return clip(match[0]);
}

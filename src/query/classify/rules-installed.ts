import { frameworkIn, looksLikeModelId } from './names.js';
import { launchOptions } from './shape.js';
import { optionValue, positionals, type CommandView, type Rule } from './view.js';

/**
 * Servers of no known framework: the program of a package the session installed (pip, uv, pipx,
 * conda, `cargo install`, `npm install -g`, a GitHub release binary), launched as a server. What it
 * is called is the package as installed; the tree takes it for a candidate once it was asked for a
 * model and showed how it went (src/query/tree/unknown-stack.ts).
 */
export const INSTALLED_RULES: readonly Rule[] = [
  {
    name: 'installed-serve',
    kind: 'serve',
    description: 'the program (or `python -m` module) of a package of no known framework the session installed, launched as a server: with a port, host or model option, or a serve/run subcommand (`fastllm-serve --model M --port 9000`)',
    match: (v) => {
      if (!v.context || v.pipelinePosition !== 0) return null;
      const launched = installedLaunch(v);
      if (!launched || !servesLike(launched.args)) return null;
      const model = optionValue(launched.args, SERVE_MODEL_OPTIONS) ?? positionals(launched.args).find(looksLikeModelId) ?? null;
      const portValue = optionValue(launched.args, ['--port', '-p', '--listen', '--bind']);
      const port = portValue ? Number(/(\d+)$/.exec(portValue)?.[1] ?? NaN) : NaN;
      return { subject: model ?? launched.spec, subjectKind: model ? 'model' : 'package', model, packages: [launched.spec], port: Number.isInteger(port) && port > 0 && port < 65536 ? port : null, framework: null, options: launchOptions(launched.args, null) };
    },
  },
];

const SERVE_MODEL_OPTIONS = ['--model', '-m', '--model-path', '--model_path', '--model-id', '--model-name', '--model_name', '--model-dir'];

/**
 * A launch reads as a server's: it takes a port, host or model, or its first word is a serving verb.
 * A verb followed by another program (`poetry run vllm serve …`, `pm2 start "vllm serve …"`) is a
 * runner or supervisor of that program, not the server.
 */
function servesLike(args: readonly string[]): boolean {
  if (args.some((a) => a === '--help' || a === '-h' || a === '--version' || a === '-V')) return false;
  const [verb, next] = args;
  if (/^(?:run|start|exec|launch)$/.test(verb ?? '') && next !== undefined && runsAnotherProgram(next)) return false;
  if (/^(?:serve|server|run|launch|start|up)$/.test(verb ?? '')) return true;
  return args.some((a) => /^--(?:port|host|listen|bind|model(?:[-_](?:path|id|dir|name))?)(?:=|$)/.test(a));
}

/** `vllm serve M` quoted whole, a program a rule file knows, or an interpreter: the word after a runner's verb. */
function runsAnotherProgram(word: string): boolean {
  return /\s/.test(word.trim()) || /^(?:python[\d.]*|node|deno|bun|bash|sh|uvicorn|gunicorn|npx|uvx)$/.test(word) || frameworkIn(word) !== null;
}

/** The installed package a command runs: its program by name, or `python -m MODULE`. */
function installedLaunch(v: CommandView): { spec: string; args: readonly string[] } | null {
  const context = v.context as NonNullable<CommandView['context']>;
  if (/^python[\d.]*$/.test(v.program)) {
    const at = v.args.indexOf('-m');
    const module = at === -1 ? null : v.args[at + 1];
    const spec = module && !/^(?:pip|venv|http\.server)$/.test(module) ? context.installedPackage(module) : null;
    return spec ? { spec, args: v.args.slice(at + 2) } : null;
  }
  const spec = context.installedPackage(v.program);
  return spec ? { spec, args: v.args } : null;
}

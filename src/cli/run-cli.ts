import { CommanderError } from 'commander';
import { SessionLookupError } from '../query/session-queries.js';
import { StoreError } from '../store/errors.js';
import { EXIT, JobFailedError, UsageError } from './errors.js';
import { consoleOutput, type Output } from './output.js';
import { buildProgram } from './program.js';

/** The document `--json` prints on stdout when a command fails before printing its own. */
export interface JsonErrorDocument {
  error: { kind: 'usage' | 'failed' | 'store' | 'unexpected'; message: string; exit_code: number };
}

/** Whether the command line asks for JSON (`--json`, or `tree --format json`), options before `--` only. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  return args.some((arg, i) => arg === '--json' || arg === '--format=json' || (arg === '--format' && args[i + 1] === 'json'));
}

/** The output, remembering whether a JSON document was printed (so a failure adds none after it). */
function trackingJson(output: Output): { output: Output; printedJson: () => boolean } {
  let printed = false;
  const tracked: Output = {
    get interactive() {
      return output.interactive;
    },
    get columns() {
      return output.columns;
    },
    line: (text) => output.line(text),
    data: (text) => output.data(text),
    json: (value) => {
      printed = true;
      output.json(value);
    },
    warn: (text) => output.warn(text),
    status: (text) => output.status(text),
    clearStatus: () => output.clearStatus(),
  };
  return { output: tracked, printedJson: () => printed };
}

interface Failure {
  kind: JsonErrorDocument['error']['kind'];
  message: string;
  exitCode: number;
  /** Lines for stderr; commander has printed its own already. */
  stderr: string[];
}

function describeFailure(error: unknown): Failure | null {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return null;
    return { kind: 'usage', message: error.message.replace(/^error: /, ''), exitCode: EXIT.usage, stderr: [] };
  }
  if (error instanceof UsageError || error instanceof SessionLookupError) {
    return { kind: 'usage', message: error.message, exitCode: EXIT.usage, stderr: [`retrace: ${error.message}`] };
  }
  if (error instanceof JobFailedError || error instanceof StoreError) {
    const kind = error instanceof StoreError ? 'store' : 'failed';
    return { kind, message: error.message, exitCode: EXIT.failed, stderr: [`retrace: ${error.message}`] };
  }
  const message = error instanceof Error ? error.message : String(error);
  const detail = error instanceof Error && process.env['RETRACE_DEBUG'] ? (error.stack ?? message) : message;
  return {
    kind: 'unexpected',
    message,
    exitCode: EXIT.failed,
    stderr: [`retrace: unexpected failure: ${detail}`, 'This is a bug in retrace; run again with RETRACE_DEBUG=1 for the stack trace.'],
  };
}

/**
 * Runs the CLI and returns its exit code; errors a user can act on print without a stack. With
 * `--json`, a failure is also one JSON document on stdout, so a script always has one to read.
 */
export async function runCli(argv: readonly string[], output = consoleOutput()): Promise<number> {
  let exitCode: number = EXIT.ok;
  const { output: tracked, printedJson } = trackingJson(output);
  try {
    const program = await buildProgram({ output: tracked, setExitCode: (code) => (exitCode = code) }, argv);
    await program.parseAsync(argv as string[], { from: 'user' });
    return exitCode;
  } catch (error) {
    const failure = describeFailure(error);
    if (!failure) return EXIT.ok;
    for (const line of failure.stderr) output.warn(line);
    if (wantsJson(argv) && !printedJson()) {
      const document: JsonErrorDocument = { error: { kind: failure.kind, message: failure.message, exit_code: failure.exitCode } };
      output.json(document);
    }
    return failure.exitCode;
  }
}

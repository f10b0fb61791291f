import { CommanderError } from 'commander';
import { SessionLookupError } from '../query/session-queries.js';
import { StoreError } from '../store/errors.js';
import { EXIT, JobFailedError, UsageError } from './errors.js';
import { consoleOutput } from './output.js';
import { buildProgram } from './program.js';

/** Runs the CLI and returns its exit code; errors a user can act on print without a stack. */
export async function runCli(argv: readonly string[], output = consoleOutput()): Promise<number> {
  let exitCode: number = EXIT.ok;
  try {
    const program = buildProgram({ output, setExitCode: (code) => (exitCode = code) });
    await program.parseAsync(argv as string[], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help'
        ? EXIT.ok
        : EXIT.usage;
    }
    if (error instanceof UsageError || error instanceof SessionLookupError) {
      output.warn(`retrace: ${error.message}`);
      return EXIT.usage;
    }
    if (error instanceof JobFailedError || error instanceof StoreError) {
      output.warn(`retrace: ${error.message}`);
      return EXIT.failed;
    }
    output.warn(`retrace: unexpected failure: ${error instanceof Error ? (process.env['RETRACE_DEBUG'] ? error.stack : error.message) : String(error)}`);
    output.warn('This is a bug in retrace; run again with RETRACE_DEBUG=1 for the stack trace.');
    return EXIT.failed;
  }
}

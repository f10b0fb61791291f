import { packageVersion } from '../core/package-root.js';
import { asksOnlyVersion } from './version.js';

const argv = process.argv.slice(2);
// `retrace --version` answers before commander and the commands' table load (most of its start-up).
if (asksOnlyVersion(argv)) {
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const { runCli } = await import('./run-cli.js');
  process.exitCode = await runCli(argv);
}

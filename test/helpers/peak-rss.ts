import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, type CliRun } from './cli.js';

/** Reports the process's peak resident set size on stderr as it exits (Node's own accounting). */
const REPORT_PEAK = 'data:text/javascript,process.on("exit",()=>process.stderr.write("\\npeak-rss-kb="+process.resourceUsage().maxRSS+"\\n"))';

/** Runs the built `retrace` as a user would, and says how much memory it took at its peak. */
export function runRetraceMeasured(args: readonly string[]): Promise<CliRun & { peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', REPORT_PEAK, join(REPO_ROOT, 'bin', 'retrace.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const peak = /peak-rss-kb=(\d+)/.exec(stderr);
      resolve({ code: code ?? -1, stdout, stderr: stderr.replace(/\npeak-rss-kb=\d+\n/, ''), peakRssMb: peak ? Number(peak[1]) / 1024 : Number.NaN });
    });
  });
}

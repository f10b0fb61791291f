import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program retrace or its tests call on, and what for. */
export interface ToolNeed {
  name: string;
  purpose: string;
}

export const TOOL_NEEDS: readonly ToolNeed[] = [
  { name: 'ssh', purpose: 'OpenSSH client, to reach a replay host by hand (`retrace replay --live` connects on its own, reading ~/.ssh/config as OpenSSH does)' },
  { name: 'sshd', purpose: 'OpenSSH server: the replay tests start one on loopback' },
  { name: 'tmux', purpose: 'the TUI tests drive the TUI in a real terminal' },
  { name: 'ansible-playbook', purpose: 'runs what `retrace export --to ansible` writes (and its tests)' },
];

export interface ToolScan extends ToolNeed {
  /** Where it was found on PATH (and the usual sbin folders), null when it was not. */
  path: string | null;
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks each tool up as a shell would, without running it. `sshd` usually sits in an sbin folder off a user's PATH. */
export function scanTools(env: NodeJS.ProcessEnv, needs: readonly ToolNeed[] = TOOL_NEEDS): ToolScan[] {
  const dirs = [...(env['PATH'] ?? '').split(delimiter).filter((dir) => dir.length > 0), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  return needs.map((need) => ({ ...need, path: dirs.map((dir) => join(dir, need.name)).find(executable) ?? null }));
}

// The bash commands of the bundled sample session (an `opencode export` document), split into
// the target Spark and the remote command, with what the transcript recorded for each.
import { readFile } from 'node:fs/promises';
import { parse as parseShell } from 'shell-quote';
import { z } from 'zod';
import type { HostRole } from '../ssh/harness.js';

const bashPart = z.object({
  type: z.literal('tool'),
  tool: z.literal('bash'),
  state: z.object({
    input: z.object({ command: z.string() }),
    output: z.string().optional(),
    metadata: z.object({ exit: z.number().nullable().optional() }).optional(),
  }),
});

const exportDocument = z.object({
  messages: z.array(z.object({ parts: z.array(z.unknown()) })),
});

// The sample's addresses (sessions/README.md): data that tells which Spark a command was for.
const ROLE_BY_ADDRESS: Record<string, HostRole> = { '10.1.230.180': 'head', '10.1.230.181': 'worker' };

export interface RecordedCommand {
  /** 1-based position among the session's bash calls. */
  ordinal: number;
  role: HostRole;
  /** What ran on the Spark: the quoted argument of `ssh user@host '…'`. */
  remote: string;
  /** null when the bash tool killed the command (its timeout). */
  exit: number | null;
  output: string;
}

export async function readRecordedCommands(exportPath: string): Promise<RecordedCommand[]> {
  const document = exportDocument.parse(JSON.parse(await readFile(exportPath, 'utf8')));
  const commands: RecordedCommand[] = [];
  for (const message of document.messages) {
    for (const part of message.parts) {
      const bash = bashPart.safeParse(part);
      if (!bash.success) continue;
      const [program, destination, remote] = parseShell(bash.data.state.input.command);
      const address = typeof destination === 'string' ? destination.split('@').pop() ?? '' : '';
      const role = ROLE_BY_ADDRESS[address];
      if (program !== 'ssh' || !role || typeof remote !== 'string') {
        throw new Error(`${exportPath}: bash call ${commands.length + 1} is not "ssh user@spark '…'": ${bash.data.state.input.command}`);
      }
      commands.push({
        ordinal: commands.length + 1,
        role,
        remote,
        exit: bash.data.state.metadata?.exit ?? null,
        output: bash.data.state.output ?? '',
      });
    }
  }
  return commands;
}

/**
 * Masks what legitimately differs between the recording and a simulated run: clock times,
 * durations, generated ids and digests, the HOME folder.
 */
export function normalizeOutput(text: string, homeDir: string): string[] {
  return text
    .replaceAll(homeDir, '/home/aurora')
    .split('\n')
    .map((line) =>
      line
        .replace(/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\s*$/, '<date>')
        .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+/g, '<timestamp>')
        .replace(/\b\d\d-\d\d \d\d:\d\d:\d\d\b/g, '<log time>')
        .replace(/\b[0-9a-f]{64}\b/g, '<hex64>')
        .replace(/\bnode_[0-9a-f]{56}\b/g, 'node_<id>')
        .replace(/\b(chatcmpl-|cmpl-|modelperm-)[0-9a-f]{32}\b/g, '$1<id>')
        .replace(/"created": \d+/g, '"created": <time>')
        .replace(/\[\d\d:\d\d<\d\d:\d\d, [^\]]+\]/g, '[<tqdm>]')
        .replace(/^(real|user|sys)\t\d+m[\d.]+s$/, '$1\t<time>')
        .replace(/\bUp (?:\d+|About an?|Less than a) \w+/g, 'Up <time>')
        .trimEnd(),
    )
    .filter((line) => line.trim() !== '' && !/^<\/?bash_metadata>$|^bash tool terminated/.test(line));
}

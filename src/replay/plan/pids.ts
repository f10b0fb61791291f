import type { Unit } from './units.js';

/**
 * Recorded process ids and container ids mean nothing on another machine. A `kill 424735` whose
 * process an earlier `ps` showed becomes `pkill -f` of that process's command line; a container
 * id an earlier `docker ps` or `docker run -d` printed becomes the container's name. What cannot
 * be looked up by name is reported, so the step is dropped rather than replayed blind. Pure.
 */

export interface Rewrite {
  command: string;
  /** What was replaced, for --explain. */
  notes: string[];
  /** Ids that could not be replaced by a name or a pattern. */
  unresolved: string[];
}

const CONTAINER_ID = /^[0-9a-f]{12}(?:[0-9a-f]{52})?$/;

/** A time column of ps: TIME or STIME (`0:42`, `00:00:05`, `16:08:27`) or ELAPSED (`6-02:34:15`). */
const TIME_COLUMN = /\s(?:\d+-)?\d+:\d{2}(?::\d{2})?(?:\.\d+)?(?=\s)/g;

/**
 * ps aux/-ef and `ps -o pid,user,lstart,etime,args`: the command follows the last of the time
 * columns, which may be several (a start time, its year, the elapsed time). The first time column
 * followed by something that is not itself a number or a time starts the command.
 */
function commandAfterTimes(line: string): string | null {
  for (const match of line.matchAll(TIME_COLUMN)) {
    const rest = line.slice((match.index ?? 0) + match[0].length).trim();
    if (rest !== '' && !/^[\d:.-]+(?:\s|$)/.test(rest)) return rest;
  }
  return null;
}

/** The command line `ps` (or nvidia-smi's process table) showed for a PID, in earlier outputs. */
function processOf(pid: string, earlier: readonly Unit[]): string | null {
  for (const unit of [...earlier].reverse()) {
    for (const line of unit.call.output.split('\n')) {
      if (!new RegExp(`(?:^|\\s)${pid}(?:\\s|$)`).test(line)) continue;
      const ps = commandAfterTimes(line);
      if (ps) return ps;
      // pgrep -a / nvidia-smi --query-compute-apps=pid,process_name: the PID then the command.
      const pgrep = new RegExp(`^\\s*${pid}[\\s,]+(\\S.*)$`).exec(line);
      if (pgrep?.[1] && !/^\d/.test(pgrep[1])) return pgrep[1].replace(/,\s*\d+\s*MiB\s*$/, '').trim();
    }
  }
  return null;
}

/** A pkill pattern for a command line: the program and its first argument, regex-escaped. */
function patternFor(commandLine: string): string {
  const [program = '', first] = commandLine.split(/\s+/);
  const words = [program.split('/').pop() ?? program, first && !first.startsWith('-') ? first.split('/').pop() : first].filter(Boolean) as string[];
  return words.join(' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The name of a container id: a `docker ps` row that starts with it, or the `docker run --name` that printed it. */
function containerNameOf(id: string, earlier: readonly Unit[]): string | null {
  for (const unit of [...earlier].reverse()) {
    const run = unit.changes.find((leaf) => leaf.command.dockerRun?.name)?.command.dockerRun;
    if (run?.name && unit.call.output.split('\n').some((line) => line.trim().startsWith(id))) return run.name;
    for (const line of unit.call.output.split('\n')) {
      if (!line.startsWith(id)) continue;
      const name = line.trim().split(/\s{2,}|\t/).at(-1);
      if (name && /^[A-Za-z0-9][\w.-]*$/.test(name) && !CONTAINER_ID.test(name)) return name;
    }
  }
  return null;
}

/** `kill PIDS` with what chains it to the rest (`&& sleep 3 &&`, `;`): the part a replay leaves out. */
function killClause(pids: readonly string[]): RegExp {
  return new RegExp(`\\bkill(?:\\s+-[A-Za-z0-9]+)*\\s+${pids.join('\\s+')}\\b\\s*(?:&&|;)\\s*(?:sleep\\s+[\\d.]+\\s*(?:&&|;)\\s*)?`);
}

/**
 * `ownPid`: whether a PID was printed by a process this session started in the background. Killing
 * it stops the session's own earlier attempt, which the plan does not start: that kill is left out
 * of the command (the rest of it, a unit file and its start, is the deployment).
 */
export function rewriteRecordedIds(unit: Unit, earlier: readonly Unit[], ownPid: (pid: string) => boolean = () => false): Rewrite {
  let command = unit.segment.command;
  const notes: string[] = [];
  const unresolved: string[] = [];
  for (const leaf of unit.changes) {
    const { program, argv } = leaf.command;
    if (program === 'kill') {
      const pids = argv.slice(1).filter((word) => /^\d+$/.test(word));
      if (pids.length === 0) continue;
      const clause = killClause(pids);
      if (pids.every(ownPid) && clause.test(command)) {
        command = command.replace(clause, '');
        notes.push(`kill ${pids.join(' ')} stopped this session's own earlier attempt: left out`);
        continue;
      }
      const lines = pids.map((pid) => processOf(pid, earlier));
      const kill = new RegExp(`\\bkill(?:\\s+-[A-Za-z0-9]+)*\\s+${pids.join('\\s+')}\\b`);
      if (lines.every((line): line is string => line !== null)) {
        const patterns = [...new Set(lines.map(patternFor))];
        const signal = argv.slice(1).find((word) => /^-(?:[A-Z][A-Z0-9]*|\d+)$/.test(word));
        command = command.replace(kill, patterns.map((p) => `pkill ${signal ? `${signal} ` : ''}-f '${p.replace(/'/g, `'\\''`)}'`).join('; '));
        notes.push(`kill ${pids.join(' ')} (recorded PIDs) → pkill -f of ${patterns.join(', ')}`);
      } else unresolved.push(...pids.map((pid) => `PID ${pid}`));
      continue;
    }
    if (!/^(?:docker|podman|nerdctl)$/.test(program)) continue;
    for (const word of argv.slice(1)) {
      if (!CONTAINER_ID.test(word)) continue;
      const name = containerNameOf(word, earlier);
      if (name) {
        command = command.split(word).join(name);
        notes.push(`container id ${word.slice(0, 12)} → ${name}`);
      } else unresolved.push(`container ${word.slice(0, 12)}`);
    }
  }
  return { command, notes, unresolved };
}

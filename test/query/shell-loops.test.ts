import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/query/shell/index.js';
import type { ParsedCommand } from '../../src/query/shell/types.js';

/** Every command a line runs, depth first, as `program@host`. */
function ran(text: string): string[] {
  const out: string[] = [];
  const walk = (commands: readonly ParsedCommand[]): void => {
    for (const c of commands) {
      out.push(`${c.argv.slice(0, 2).join(' ')}@${c.place.host ?? ''}`);
      walk(c.children);
    }
  };
  walk(parseCommandLine(text));
  return out;
}

describe('a for loop over plain words', () => {
  it('runs its body once per word, the variable put in: each host its own pull', () => {
    expect(ran("for h in 10.8.0.11 10.8.0.12; do ssh ubuntu@$h 'docker pull vllm/vllm-openai:v0.8.5' & done; wait")).toEqual([
      'ssh ubuntu@10.8.0.11@10.8.0.11', 'docker pull@10.8.0.11',
      'ssh ubuntu@10.8.0.12@10.8.0.12', 'docker pull@10.8.0.12',
      'wait@',
    ]);
  });

  it('unrolls a loop written over several lines, with ${VAR}', () => {
    expect(ran('for n in a b\ndo\n  ssh u@${n} uptime\ndone')).toEqual(['ssh u@a@a', 'uptime@a', 'ssh u@b@b', 'uptime@b']);
  });

  it('keeps a poll (a body that never uses its variable) and a loop over a substitution as they are', () => {
    expect(ran('for i in 1 2 3; do curl -s localhost:8000/health; sleep 5; done')).toEqual(['curl -s@', 'sleep 5@']);
    expect(ran('for f in $(ls); do echo $f; done')).toEqual(['ls@', 'echo $f@']);
  });
});

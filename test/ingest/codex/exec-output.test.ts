import { describe, expect, it } from 'vitest';
import { outputText, parseExecOutput } from '../../../src/ingest/codex/exec-output.js';
import { commandOf, commandOfArgv } from '../../../src/ingest/codex/tool-calls.js';

describe('Codex tool output styles', () => {
  it('structured JSON: exit code and duration from metadata', () => {
    const parsed = parseExecOutput(JSON.stringify({ output: 'WARNING: Package(s) not found: vllm\n', metadata: { exit_code: 1, duration_seconds: 1.4 } }));
    expect(parsed).toEqual({ style: 'structured', body: 'WARNING: Package(s) not found: vllm\n', exitCode: 1, wallTimeMs: 1400, timedOut: false, truncated: false, runningSession: null, shellCommand: null });
  });

  it('freeform: a timeout is exit 124 with the timeout line first in the body', () => {
    const parsed = parseExecOutput('Exit code: 124\nWall time: 300.0 seconds\nOutput:\ncommand timed out after 300000 milliseconds\nv0.4.9: Pulling');
    expect([parsed.style, parsed.exitCode, parsed.wallTimeMs, parsed.timedOut]).toEqual(['freeform', 124, 300000, true]);
    expect(parsed.body).toBe('command timed out after 300000 milliseconds\nv0.4.9: Pulling');
  });

  it('freeform with `Total output lines` means the body was truncated', () => {
    const parsed = parseExecOutput('Exit code: 1\nWall time: 48.3 seconds\nTotal output lines: 57\nOutput:\nhead\n[... omitted 31 of 57 lines ...]\ntail');
    expect([parsed.exitCode, parsed.truncated, parsed.timedOut]).toEqual([1, true, false]);
  });

  it('unified exec: exited, or still running with a session id to poll', () => {
    const exited = parseExecOutput('Chunk ID: 9d15c2\nWall time: 161.9000 seconds\nProcess exited with code 0\nOriginal token count: 17\nOutput:\ndone\n');
    expect([exited.style, exited.exitCode, exited.wallTimeMs, exited.runningSession, exited.body]).toEqual(['unified', 0, 161900, null, 'done\n']);
    const running = parseExecOutput('Chunk ID: 28730a\nWall time: 10.0021 seconds\nProcess running with session ID 4117\nOriginal token count: 1\nOutput:\n');
    expect([running.exitCode, running.runningSession]).toEqual([null, 4117]);
  });

  it('unified exec of 0.118: a `Command:` header first (over several lines for a heredoc), the exit line optional', () => {
    // Shapes from real 0.118 rollouts quoted in public readers' tests (e.g. a codex-trace with
    // `Command: /run/current-system/sw/bin/zsh -lc '…'\nChunk ID: 1c5139\nWall time: 0.0002 seconds\nProcess exited with code 0`).
    const full = parseExecOutput("Command: /bin/zsh -lc 'rg -n TODO src'\nChunk ID: 1c5139\nWall time: 0.2500 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nnone\n");
    expect([full.style, full.shellCommand, full.exitCode, full.wallTimeMs, full.body]).toEqual(['unified', "/bin/zsh -lc 'rg -n TODO src'", 1, 250, 'none\n']);
    const bare = parseExecOutput("Command: /bin/zsh -lc 'git status --short'\nOutput:\n M README.md\n");
    expect([bare.style, bare.exitCode, bare.body]).toEqual(['unified', null, ' M README.md\n']);
    const heredoc = parseExecOutput("Command: /bin/bash -lc 'cat <<EOF\nhi\nEOF'\nChunk ID: a\nWall time: 1.5 seconds\nProcess exited with code 0\nOutput:\nhi\n");
    expect([heredoc.shellCommand, heredoc.exitCode, heredoc.body]).toEqual(["/bin/bash -lc 'cat <<EOF\nhi\nEOF'", 0, 'hi\n']);
    // A text that merely starts with the word is not a header.
    expect(parseExecOutput('Command: ls\nthen some prose')).toMatchObject({ style: 'text', shellCommand: null });
  });

  it('anything else is plain text with no exit code', () => {
    expect(parseExecOutput('{"agent_id":"019c","nickname":"Noether"}')).toMatchObject({ style: 'text', exitCode: null });
    expect(parseExecOutput('Exit code is what you make of it')).toMatchObject({ style: 'text', exitCode: null });
    expect(outputText([{ type: 'input_text', text: 'a' }, { type: 'input_image', image_url: 'data:' }])).toBe('a\n[input_image]');
  });

  it('finds the command line under every name the shell tool has had', () => {
    expect(commandOf('shell', { command: ['bash', '-lc', "ssh h 'ls'"] })).toBe("ssh h 'ls'");
    expect(commandOf('shell', { command: ['docker', 'ps', '-a'] })).toBe('docker ps -a');
    expect(commandOf('shell_command', { command: 'uptime' })).toBe('uptime');
    expect(commandOf('exec_command', { cmd: 'nvidia-smi' })).toBe('nvidia-smi');
    expect(commandOf('write_stdin', { session_id: 1, chars: '' })).toBeNull();
    expect(commandOfArgv(['apply_patch', '*** Begin Patch'])).toBeNull();
    expect(commandOfArgv(['echo', 'a b'])).toBe("echo 'a b'");
  });
});

import { describe, expect, it } from 'vitest';
import { hostArchitecture, missingPlatform } from '../../src/query/classify/platforms.js';
import { parseTopCommandLine, type ParsedCommand } from '../../src/query/shell/index.js';

/** Every command of a line, nested ones (inside `ssh host '…'`) included, as the classifier sees them. */
function commands(line: string): ParsedCommand[] {
  const all: ParsedCommand[] = [];
  const walk = (list: readonly ParsedCommand[]): void => list.forEach((c) => (all.push(c), walk(c.children)));
  walk(parseTopCommandLine(line));
  return all;
}

describe('architectures a session learns', () => {
  it('reads the host from uname, docker version and lscpu, and only when a command asks', () => {
    expect(hostArchitecture(commands("ssh a@b 'uname -m; nvidia-smi'"), 'aarch64\nNVIDIA GB10\n')).toBe('arm64');
    expect(hostArchitecture(commands('docker version --format "{{.Server.Version}} {{.Server.Arch}}"'), '28.5.1 amd64\n')).toBe('amd64');
    expect(hostArchitecture(commands('lscpu'), 'Architecture:            x86_64\nCPU op-mode(s): 32-bit, 64-bit\n')).toBe('amd64');
    // A log that happens to print an architecture says nothing of the host.
    expect(hostArchitecture(commands('cat build.log'), 'aarch64\n')).toBeNull();
  });

  it('finds a manifest that offers nothing for the host, and only then', () => {
    const amd64Only = '{"architecture":"amd64","os":"linux"}\n';
    const both = '{"architecture":"amd64","os":"linux"}\n{"architecture":"arm64","os":"linux","variant":"v8"}\n';
    expect(missingPlatform(amd64Only, 'arm64')?.label).toBe('no matching manifest for linux/arm64 (the manifest offers amd64 only)');
    expect(missingPlatform(both, 'arm64')).toBeNull();
    expect(missingPlatform(amd64Only, 'amd64')).toBeNull();
    expect(missingPlatform(amd64Only, null)).toBeNull();
    expect(missingPlatform('no such manifest', 'arm64')).toBeNull();
  });
});

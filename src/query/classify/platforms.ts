import { ownString } from '../../core/own-string.js';
import type { ParsedCommand } from '../shell/index.js';
import type { SignatureHit } from './signatures.js';

/**
 * CPU architectures as a session learns them: what a host is (`uname -m` prints `aarch64`, `docker
 * version` says `arm64`), and what a registry's manifest offers (`docker manifest inspect` lists
 * `"architecture": "amd64"`). An image whose manifest offers nothing for the host's architecture
 * cannot run there, as surely as a pull that says `no matching manifest for linux/arm64`.
 */
export type Architecture = 'arm64' | 'amd64';

const SPELLINGS: Record<string, Architecture> = { aarch64: 'arm64', arm64: 'arm64', x86_64: 'amd64', amd64: 'amd64' };
/** Programs whose output says what the machine is. */
const ASKS_ARCH = (c: ParsedCommand): boolean =>
  (c.program === 'uname' && c.argv.some((a) => /^-\w*[ma]/.test(a))) || c.program === 'arch' || c.program === 'lscpu'
  || (c.program === 'dpkg' && c.argv.includes('--print-architecture'))
  || (/^(?:docker|podman)$/.test(c.program) && (c.argv[1] === 'version' || c.argv[1] === 'info'));
/** A line that is an architecture alone (`aarch64`), or names it (`Architecture: aarch64`, `28.5.1 arm64`, `Arch: arm64`). */
const ARCH_LINE = /^\s*(?:(?:Architecture|Arch|OS\/Arch)\s*:\s*(?:linux\/)?|\S+\s+)?(aarch64|arm64|x86_64|amd64)\s*$/i;

/** The architecture a call's output tells of its host, when one of its commands asks. */
export function hostArchitecture(commands: readonly ParsedCommand[], output: string | null): Architecture | null {
  if (!output || !commands.some(ASKS_ARCH)) return null;
  for (const line of output.split('\n')) {
    const found = ARCH_LINE.exec(line)?.[1];
    if (found) return SPELLINGS[found.toLowerCase()] ?? null;
  }
  return null;
}

const MANIFEST_ARCH = /"architecture"\s*:\s*"(\w+)"/g;

/** A manifest read for a host of `arch` that offers other architectures only: the failure a pull there would give. */
export function missingPlatform(output: string | null, arch: Architecture | null): SignatureHit | null {
  if (!output || !arch) return null;
  const offered = [...output.matchAll(MANIFEST_ARCH)].map((m) => SPELLINGS[(m[1] as string).toLowerCase()] ?? (m[1] as string).toLowerCase());
  if (offered.length === 0 || offered.includes(arch)) return null;
  const line = output.split('\n').find((l) => l.includes('"architecture"')) ?? '';
  return {
    name: 'manifest-missing',
    effect: 'failure',
    label: `no matching manifest for linux/${arch} (the manifest offers ${[...new Set(offered)].join(', ')} only)`,
    line: ownString(line.trim()),
    decisive: true,
  };
}

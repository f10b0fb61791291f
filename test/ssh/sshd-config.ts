// The text of the files each test host needs: sshd_config, the session start script, the
// client's ssh_config. Pure functions of their inputs, so they are easy to read and check.

export interface SshdConfigInput {
  address: string;
  port: number;
  hostKeyPath: string;
  authorizedKeysPath: string;
  pidFilePath: string;
  sessionStartPath: string;
  /** Seconds between server keepalives; 0 turns them off. */
  clientAliveInterval: number;
  clientAliveCountMax: number;
  environment: Readonly<Record<string, string>>;
}

/** sshd's SetEnv takes NAME=VALUE words; quote the ones that need it. */
function setEnvWord(name: string, value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not an environment variable name: ${name}`);
  const word = `${name}=${value}`;
  if (/^[^\s"'\\#]+$/.test(word)) return word;
  if (/["\\\n]/.test(value)) throw new Error(`cannot pass ${name} through sshd SetEnv: ${JSON.stringify(value)}`);
  return `"${word}"`;
}

export function renderSshdConfig(input: SshdConfigInput): string {
  const setEnv = Object.entries(input.environment).map(([name, value]) => setEnvWord(name, value));
  return [
    '# Test host written by test/ssh/harness.ts: loopback only, keys only, nothing from /etc/ssh.',
    `ListenAddress ${input.address}:${input.port}`,
    `HostKey ${input.hostKeyPath}`,
    `PidFile ${input.pidFilePath}`,
    `AuthorizedKeysFile ${input.authorizedKeysPath}`,
    'PermitRootLogin prohibit-password',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'HostbasedAuthentication no',
    // The temp dir and its files are not owned the way StrictModes wants; PAM would need the
    // account set up for password logins and is not what we test.
    'StrictModes no',
    'UsePAM no',
    'PrintMotd no',
    'PrintLastLog no',
    'PermitUserEnvironment no',
    'AllowTcpForwarding yes',
    'X11Forwarding no',
    'MaxStartups 100:30:200',
    'MaxSessions 50',
    'LoginGraceTime 30',
    'LogLevel VERBOSE',
    `ClientAliveInterval ${input.clientAliveInterval}`,
    `ClientAliveCountMax ${input.clientAliveCountMax}`,
    // SetEnv wins over what sshd sets itself (HOME, PATH): the session sees the test host's own.
    `SetEnv ${setEnv.join(' ')}`,
    // sshd always starts a session in the account's real home; this script moves it to $HOME.
    `ForceCommand ${input.sessionStartPath}`,
    'Subsystem sftp /usr/lib/openssh/sftp-server',
    '',
  ].join('\n');
}

/**
 * Run by sshd (through the login shell) for every session. It only changes directory to the
 * test host's HOME, then runs what the client asked for exactly as sshd would have, with the
 * host's login shell (the account's own, or dash for the dash host).
 */
export function renderSessionStartScript(loginShell: string | null = null): string {
  // A host whose account logs in with dash runs every command with dash, as sshd would.
  const shell = loginShell ?? '$SHELL';
  return [
    '#!/bin/sh',
    '# Written by test/ssh/harness.ts. Start every session in the test HOME, never the real one.',
    'cd "$HOME" || exit 1',
    ...(loginShell ? [`SHELL=${loginShell}; export SHELL`] : []),
    'if [ -z "${SSH_ORIGINAL_COMMAND+set}" ]; then',
    `  exec "${shell}" -l`,
    'fi',
    '# Unset it so the session looks like an ordinary one (no ForceCommand) to what runs inside.',
    'requested_command=$SSH_ORIGINAL_COMMAND',
    'unset SSH_ORIGINAL_COMMAND',
    `exec "${shell}" -c "$requested_command"`,
    '',
  ].join('\n');
}

/** A login shell reads /etc/profile, which resets PATH on Debian; the test HOME's profile puts it back. */
export function renderLoginProfile(path: string): string {
  return [
    '# Written by test/ssh/harness.ts: /etc/profile reset PATH; restore the simulated toolset first.',
    `export PATH='${path}'`,
    '',
  ].join('\n');
}

export interface SshConfigHost {
  alias: string;
  address: string;
  port: number;
  user: string;
}

export function renderSshConfig(hosts: readonly SshConfigHost[], identityPath: string, knownHostsPath: string): string {
  return hosts
    .map((host) =>
      [
        `Host ${host.alias}`,
        `  HostName ${host.address}`,
        `  Port ${host.port}`,
        `  User ${host.user}`,
        `  IdentityFile ${identityPath}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${knownHostsPath}`,
        '  StrictHostKeyChecking yes',
        '',
      ].join('\n'),
    )
    .join('\n');
}

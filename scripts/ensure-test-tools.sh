#!/usr/bin/env bash
# Makes sure the tools the test suite drives for real are installed:
#   sshd, ssh, ssh-keygen (the replay tests start real OpenSSH servers on loopback)
#   tmux                  (the TUI end-to-end test runs in a real terminal)
#   ansible-playbook      (the Ansible export is run for real against the sshd test hosts)
# Fast and silent when everything is present. When something is missing and we are root
# with apt, installs it; otherwise exits 1 with the exact command to run.
# The system sshd service is never wanted: the tests start their own sshd on 127.0.0.2/3.
set -euo pipefail

SSHD_BIN=/usr/sbin/sshd
PACKAGES=(openssh-server openssh-client tmux ansible-core)
LOG_FILE="${TMPDIR:-/tmp}/retrace-ensure-test-tools.log"

missing_tools() {
  [[ -x "$SSHD_BIN" ]] || echo sshd
  local tool
  for tool in ssh ssh-keygen tmux ansible-playbook; do
    command -v "$tool" >/dev/null 2>&1 || echo "$tool"
  done
}

mapfile -t missing_list < <(missing_tools)
(( ${#missing_list[@]} )) || exit 0
missing="${missing_list[*]}"

install_command="apt-get update && apt-get install -y --no-install-recommends ${PACKAGES[*]}"

if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-test-tools: missing ${missing}; install them first, e.g. (Debian/Ubuntu): sudo sh -c '${install_command}'" >&2
  exit 1
fi

# Listening on port 22? Read the kernel's table rather than connecting: 0016 is port 22, 0A is LISTEN.
port_22_listening() {
  awk 'NR > 1 && $4 == "0A" && $2 ~ /:0016$/ { found = 1 } END { exit !found }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
port_22_was_listening=no
port_22_listening && port_22_was_listening=yes

# A policy-rc.d that answers 101 tells the package scripts not to start the service.
# Only add one if the machine has none, and remove it afterwards.
policy_file=/usr/sbin/policy-rc.d
own_policy=no
if [[ ! -e "$policy_file" ]]; then
  printf '#!/bin/sh\n# temporary, written by retrace scripts/ensure-test-tools.sh\nexit 101\n' >"$policy_file"
  chmod 755 "$policy_file"
  own_policy=yes
fi
cleanup() { [[ "$own_policy" == yes ]] && rm -f "$policy_file"; return 0; }
trap cleanup EXIT

echo "ensure-test-tools: installing ${PACKAGES[*]} with apt-get (missing: ${missing}; log: ${LOG_FILE}) ..." >&2
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}"; } \
  >"$LOG_FILE" 2>&1; then
  echo "ensure-test-tools: apt-get failed (see ${LOG_FILE}); run it yourself: ${install_command}" >&2
  exit 1
fi

# If the package enabled or started the system service anyway, undo that: nothing should
# answer on port 22 because of us.
if [[ -d /run/systemd/system ]]; then
  systemctl disable --now ssh.service ssh.socket >>"$LOG_FILE" 2>&1 || true
fi
if [[ "$port_22_was_listening" == no ]] && port_22_listening && [[ -s /run/sshd.pid ]]; then
  kill "$(cat /run/sshd.pid)" 2>/dev/null || true
fi

mapfile -t missing_list < <(missing_tools)
if (( ${#missing_list[@]} )); then
  echo "ensure-test-tools: still missing after install: ${missing_list[*]} (see ${LOG_FILE})" >&2
  exit 1
fi
echo "ensure-test-tools: done" >&2

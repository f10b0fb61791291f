# shellcheck shell=bash
# Shared helpers of the simulated VPS toolset (docker compose, nginx, certbot, systemd units),
# sourced by every stub in ../bin. A STUB: nothing here touches the network, a real service
# manager or the machine's /etc. Everything is state in plain files under $SPARK_SIM_STATE:
#   root/            the host's file system as far as the stubs and sudo see it: root/etc/nginx,
#                    root/etc/systemd/system, root/etc/letsencrypt (sudo maps /etc/… here)
#   units/<name>/    a systemd unit's state: loaded (the unit file as of daemon-reload), enabled, active
#   compose/<project>/  a compose project: images/, services/<svc> (running), models/ (ollama pull)

VPS_SIM_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VPS_STATE="${SPARK_SIM_STATE:?vps-sim: SPARK_SIM_STATE is not set (the simulated toolset keeps its state there)}"
VPS_ROOT="$VPS_STATE/root"
SPARK_BIN="$VPS_SIM_DIR/../spark-sim/bin"

vps_die() { # message [exit code]
  printf '%s\n' "$1" >&2
  exit "${2:-1}"
}

# An absolute path as the stubs see it: /etc/nginx/x → $VPS_ROOT/etc/nginx/x (already mapped: unchanged).
vps_path() { # path
  case "$1" in
    "$VPS_ROOT"/*) printf '%s\n' "$1" ;;
    /etc/* | /etc | /usr/local/* | /var/lib/* | /srv/* | /opt/*) printf '%s\n' "$VPS_ROOT$1" ;;
    *) printf '%s\n' "$1" ;;
  esac
}

# The path a user would see for a mapped one: $VPS_ROOT/etc/x → /etc/x.
vps_shown() { printf '%s\n' "${1#"$VPS_ROOT"}"; }

vps_lock() {
  mkdir -p "$VPS_STATE"
  exec {VPS_LOCK_FD}>>"$VPS_STATE/.vps-lock"
  flock "$VPS_LOCK_FD"
}

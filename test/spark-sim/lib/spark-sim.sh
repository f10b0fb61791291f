# shellcheck shell=bash
# Shared helpers of the simulated DGX Spark toolset, sourced by every stub in ../bin and
# ../container-bin. Nothing here touches the network or anything outside the state folders
# (and the session's HOME, where the HF cache lives).
#
# State is plain files, so a test can read or seed it:
#   $SPARK_SIM_STATE    this host: images/, containers/<name>/, services/, serve, pip/
#   $SPARK_SIM_CLUSTER  shared by both hosts: ray/head, ray/nodes/<hostname>, ray/serving-host

SIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SIM_LIB="$SIM_ROOT/lib"
SIM_STATE="${SPARK_SIM_STATE:?spark-sim: SPARK_SIM_STATE is not set (the simulated toolset keeps its state there)}"
SIM_CLUSTER="${SPARK_SIM_CLUSTER:-$SIM_STATE/cluster}"
SIM_HOSTNAME="${SPARK_SIM_HOSTNAME:-spark-1a32}"

sim_die() { # message [exit code]
  printf '%s\n' "$1" >&2
  exit "${2:-1}"
}

sim_now_ms() { date +%s%3N; }

sim_hash() { printf '%s' "$1" | sha256sum | cut -c1-64; }

# Scaled real time: SPARK_SIM_SLEEP_SCALE=0.01 turns the recorded `sleep 480` into 4.8 s.
sim_sleep() { # seconds
  /bin/sleep "$(awk -v s="$1" -v k="${SPARK_SIM_SLEEP_SCALE:-1}" 'BEGIN { printf "%.3f\n", s * k }')"
}

# A whole-state lock: stubs are quick, and two sessions may run them at once.
sim_lock() {
  exec {SIM_LOCK_FD}>>"$SIM_STATE/.lock"
  flock "$SIM_LOCK_FD"
}
sim_unlock() { flock -u "$SIM_LOCK_FD"; }

# Aligns tab-separated rows from stdin into columns three spaces apart, as docker's tables are.
# Widths count characters, so "…" (three bytes) pads like one. Empty cells need a " ".
sim_table() {
  # In a UTF-8 locale ${#cell} counts characters; bash rereads LC_ALL when it changes.
  local LC_ALL=C.UTF-8
  local rows=() row cells widths=() i line
  while IFS= read -r row; do
    rows+=("$row")
    IFS=$'\t' read -r -a cells <<<"$row"
    for i in "${!cells[@]}"; do
      (( ${#cells[i]} > ${widths[i]:-0} )) && widths[i]=${#cells[i]}
    done
  done
  for row in "${rows[@]}"; do
    IFS=$'\t' read -r -a cells <<<"$row"
    line=''
    for i in "${!cells[@]}"; do
      if (( i == ${#cells[@]} - 1 )); then
        line+="${cells[i]}"
      else
        line+="${cells[i]}$(printf '%*s' $(( widths[i] - ${#cells[i]} + 3 )) '')"
      fi
    done
    printf '%s\n' "$line"
  done
}

source "$SIM_LIB/machine.sh"
source "$SIM_LIB/state.sh"

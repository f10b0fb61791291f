# shellcheck shell=bash
# Images, containers, the shared Ray cluster and the served model: the state the stubs read
# and write. Sourced by spark-sim.sh.

# ---------------------------------------------------------------- images

# "docker.io/library/ubuntu" → "ubuntu:latest"; "lmsysorg/sglang:spark" stays as it is.
sim_image_ref() {
  local ref="${1#docker.io/}"
  ref="${ref#library/}"
  ref="${ref%%@*}"
  [[ "${ref##*/}" == *:* ]] || ref="$ref:latest"
  printf '%s\n' "$ref"
}

sim_image_key() { local ref; ref="$(sim_image_ref "$1")"; printf '%s\n' "${ref//[\/:]/_}"; }

# Loads IMAGE_* variables (and IMAGE_DIR) of an image of the catalogue (../images), or fails.
sim_image_load() {
  IMAGE_DIR="$SIM_ROOT/images/$(sim_image_key "$1")"
  [[ -f "$IMAGE_DIR/image.conf" ]] || return 1
  # shellcheck source=/dev/null
  source "$IMAGE_DIR/image.conf"
}

sim_image_present() { [[ -f "$SIM_STATE/images/$(sim_image_key "$1")" ]]; }

sim_image_record() { sim_image_ref "$1" >"$SIM_STATE/images/$(sim_image_key "$1")"; }

# "3 days ago", the way docker prints CREATED.
sim_ago() { # epoch_ms
  local seconds=$(( ($(sim_now_ms) - $1) / 1000 ))
  if (( seconds < 1 )); then echo 'Less than a second ago'
  elif (( seconds < 60 )); then echo "$seconds seconds ago"
  elif (( seconds < 120 )); then echo 'About a minute ago'
  elif (( seconds < 3600 )); then echo "$(( seconds / 60 )) minutes ago"
  elif (( seconds < 7200 )); then echo 'About an hour ago'
  elif (( seconds < 172800 )); then echo "$(( seconds / 3600 )) hours ago"
  elif (( seconds < 1209600 )); then echo "$(( seconds / 86400 )) days ago"
  elif (( seconds < 5184000 )); then echo "$(( seconds / 604800 )) weeks ago"
  else echo "$(( seconds / 2592000 )) months ago"
  fi
}

# ---------------------------------------------------------------- containers

sim_container_dir() { printf '%s\n' "$SIM_STATE/containers/$1"; }
sim_container_exists() { [[ -f "$SIM_STATE/containers/$1/image" ]]; }
sim_container_running() { [[ "$(cat "$SIM_STATE/containers/$1/state" 2>/dev/null)" == running ]]; }

sim_container_create() { # name image command [created_ms]
  local dir="$SIM_STATE/containers/$1"
  mkdir -p "$dir/rootfs/tmp"
  chmod 1777 "$dir/rootfs/tmp"
  sim_image_ref "$2" >"$dir/image"
  printf '%s\n' "$3" >"$dir/command"
  printf '%s\n' "${4:-$(sim_now_ms)}" >"$dir/created"
  sim_hash "$SIM_HOSTNAME/$1/$(cat "$dir/created")/$RANDOM" >"$dir/id"
  echo running >"$dir/state"
  rm -f "$dir/exit-code" "$dir/finished" "$dir/service"
  : >>"$dir/log"
}

# Stopping a container ends what ran in it: its Ray node, the model it served, its service.
sim_container_stop() { # name [exit code]
  local dir="$SIM_STATE/containers/$1"
  sim_container_running "$1" || return 0
  echo exited >"$dir/state"
  echo "${2:-0}" >"$dir/exit-code"
  sim_now_ms >"$dir/finished"
  if [[ -f "$dir/service" ]]; then echo inactive >"$SIM_STATE/services/$(cat "$dir/service")"; fi
}

# Newest first, as `docker ps` lists them.
sim_container_names() {
  local dir
  for dir in "$SIM_STATE"/containers/*/; do
    [[ -f "$dir/image" ]] && printf '%s %s\n' "$(cat "$dir/created")" "$(basename "$dir")"
  done | sort -rn | cut -d' ' -f2
}

# Runs a command "in" a container: with a private /tmp (its rootfs/tmp) when the machine allows a
# mount namespace, else on the host's /tmp. The simulation's own folders may live under /tmp (a test's
# temp dir): those are bound back into the private /tmp, so the container still sees them, while
# anything else it writes to /tmp (`> /tmp/vllm-serve.log`) stays in the container.
sim_container_exec() { # name cmd...
  local tmp
  tmp="$(sim_container_dir "$1")/rootfs/tmp"
  shift
  if sim_private_tmp_possible; then
    SIM_TMP_KEEP="$(sim_tmp_folders_in_use)" exec unshare --mount --propagation private -- /bin/sh -c '
      set -e
      for top in $SIM_TMP_KEEP; do mkdir -p "$0/$top"; mount --bind "/tmp/$top" "$0/$top"; done
      mount --rbind "$0" /tmp
      unset SIM_TMP_KEEP
      exec "$@"' "$tmp" "$@"
  fi
  exec "$@"
}

# The top-level folders under /tmp that hold the simulation (its root, state, cluster, HOME).
sim_tmp_folders_in_use() {
  local path real
  for path in "$SIM_ROOT" "$SIM_STATE" "$SIM_CLUSTER" "$HOME"; do
    real="$(readlink -f "$path")"
    [[ "$real" == /tmp/?* ]] || continue
    real="${real#/tmp/}"
    printf '%s\n' "${real%%/*}"
  done | sort -u
}

sim_private_tmp_possible() {
  if [[ ! -f "$SIM_STATE/.private-tmp" ]]; then
    if unshare --mount --propagation private -- /bin/sh -c "mount --bind '$SIM_STATE' /tmp" 2>/dev/null; then
      echo yes >"$SIM_STATE/.private-tmp"
    else
      echo no >"$SIM_STATE/.private-tmp"
    fi
  fi
  [[ "$(cat "$SIM_STATE/.private-tmp")" == yes ]]
}

# ---------------------------------------------------------------- inside a simulated container

# The container a container-bin tool runs in (set by the simulated docker), or fails.
sim_current_container() {
  [[ -n "${SPARK_SIM_CONTAINER:-}" ]] || sim_die "spark-sim: $(basename "$0") runs inside a simulated container (docker run/exec)" 2
  printf '%s\n' "$SPARK_SIM_CONTAINER"
}

# Said by a tool that would block in real life: a detached container running it stays up.
sim_keep_running() {
  [[ -n "${SPARK_SIM_CONTAINER:-}" ]] && touch "$SIM_STATE/containers/$SPARK_SIM_CONTAINER/keeps-running"
  return 0
}

# The host's own interpreter, never a python3 shim.
sim_host_python() {
  local candidate
  for candidate in /usr/bin/python3 /usr/local/bin/python3; do
    [[ -x "$candidate" ]] && { printf '%s\n' "$candidate"; return 0; }
  done
  sim_die 'spark-sim: python3 is needed on the host to simulate the python of an image' 127
}

# Runs python code with the current image's modules only: sim_image_python CODE [ARG...]
sim_image_python() {
  local modules="${SPARK_SIM_IMAGE_DIR:?not inside a simulated container}/python-modules.txt"
  [[ -f "$modules" ]] || sim_die 'sh: 1: python3: not found' 127
  "$(sim_host_python)" -S -E -s "$SIM_LIB/image_python.py" "$modules" -c "$@"
}

# ---------------------------------------------------------------- the Ray cluster (shared)

# Node files hold "hostname state_dir container container_id node_ip". A node is alive while
# that very container (not a later one of the same name) runs, on whichever host that is.
sim_ray_node_alive() { # node file
  local state container id
  read -r _ state container id _ <"$1" || return 1
  [[ "$(cat "$state/containers/$container/id" 2>/dev/null)" == "$id" ]] &&
    [[ "$(cat "$state/containers/$container/state" 2>/dev/null)" == running ]]
}

sim_ray_head_alive() { [[ -f "$SIM_CLUSTER/ray/head" ]] && sim_ray_node_alive "$SIM_CLUSTER/ray/head"; }

sim_ray_alive_nodes() {
  local node
  sim_ray_head_alive || return 0
  for node in "$SIM_CLUSTER"/ray/nodes/*; do
    [[ -f "$node" ]] && sim_ray_node_alive "$node" && basename "$node"
  done
  return 0
}

# ---------------------------------------------------------------- the served model (per host)

# $SPARK_SIM_STATE/serve holds key=value lines: model, served_name, port, container,
# container_id, tp, started_at_ms, ready_at_ms.
sim_serve_field() { sed -n "s/^$1=//p" "$SIM_STATE/serve" 2>/dev/null | head -n1; }

# Serving answers once loaded, while its container runs and (for -tp N) N Ray nodes are alive.
sim_serve_state() { # prints none | loading | ready | dead
  if [[ ! -f "$SIM_STATE/serve" ]]; then echo none; return; fi
  local container tp alive
  container="$(sim_serve_field container)"
  tp="$(sim_serve_field tp)"
  if ! sim_container_running "$container" ||
    [[ "$(cat "$SIM_STATE/containers/$container/id" 2>/dev/null)" != "$(sim_serve_field container_id)" ]]; then
    echo dead
    return
  fi
  if (( ${tp:-1} > 1 )); then
    alive="$(sim_ray_alive_nodes | wc -l)"
    if (( alive < tp )); then echo dead; return; fi
  fi
  if (( $(sim_now_ms) < $(sim_serve_field ready_at_ms) )); then echo loading; else echo ready; fi
}

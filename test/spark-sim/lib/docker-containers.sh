# shellcheck shell=bash
# docker run / exec / ps / stop / rm / logs / inspect of the simulated docker. Needs
# spark-sim.sh and docker-images.sh.
#
# A "container" is a folder in $SPARK_SIM_STATE/containers. Its command runs right away, on the
# host, with ../container-bin first on PATH: that is where the image's python3, vllm and ray
# live. The filesystem is the host's, but for /tmp, which is the container's own where the
# machine allows a mount namespace (see sim_container_exec). A detached container stays
# "running" only if its command would have kept running: the container-bin tools that block in
# real life (ray start --block, vllm serve, sleep infinity) leave a keeps-running mark instead.

SIM_CONTAINER_PATH="$SIM_ROOT/container-bin:$SIM_ROOT/bin:/usr/local/bin:/usr/bin:/bin"
SIM_RUN_ENV=()

# Options of `docker run`/`docker exec` that take a value (everything else starting with - is a flag).
sim_option_takes_value() {
  case "$1" in
    --name | -e | --env | --env-file | -v | --volume | --mount | -p | --publish | --gpus | --net | --network | \
    --ipc | --pid | --uts | --userns | --cgroupns | --shm-size | --ulimit | -w | --workdir | -u | --user | \
    --entrypoint | --runtime | --device | --cap-add | --cap-drop | --security-opt | --restart | -h | \
    --hostname | -l | --label | -m | --memory | --memory-swap | --cpus | --cpuset-cpus | --add-host | --dns | \
    --platform | --pull | --log-driver | --log-opt | --tmpfs | --group-add | --stop-signal | --stop-timeout | \
    --health-cmd | --health-interval | --device-cgroup-rule | --sysctl | --detach-keys | --volumes-from) return 0 ;;
    *) return 1 ;;
  esac
}

sim_container_not_found() { echo "Error response from daemon: No such container: $1" >&2; return 1; }

# Runs "$@" as the container's process. SPARK_SIM_DETACHED tells the container-bin tools not to block.
sim_container_process() { # image container detached cmd...
  local image="$1" name="$2" detached="$3"
  shift 3
  sim_image_load "$image" || return 125
  if ! PATH="$SIM_CONTAINER_PATH" command -v "$1" >/dev/null 2>&1; then
    echo "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: \"$1\": executable file not found in \$PATH: unknown." >&2
    return 127
  fi
  (
    local assignment
    for assignment in "${SIM_RUN_ENV[@]}"; do
      if [[ "$assignment" == *=* ]]; then export "${assignment?}"; fi
    done
    export PATH="$SIM_CONTAINER_PATH" SPARK_SIM_IMAGE_DIR="$IMAGE_DIR" SPARK_SIM_IMAGE_REF="$IMAGE_REF" \
      SPARK_SIM_CONTAINER="$name" SPARK_SIM_DETACHED="$detached"
    sim_container_exec "$name" "$@"
  )
}

# What the image's entrypoint prints first (NVIDIA's banner), adjusted to the run's flags:
# without --gpus the NVIDIA driver warning, without --ipc=host/--shm-size the SHMEM note.
sim_container_banner() { # gpus(yes|no) shm(yes|no)
  [[ -f "$IMAGE_DIR/banner.txt" ]] || return 0
  local line
  while IFS= read -r line; do
    case "$line" in
      '@@NO_GPU_WARNING@@')
        [[ "$1" == yes ]] && continue
        echo 'WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.'
        echo '   Use the NVIDIA Container Toolkit to start this container with GPU support; see'
        echo '   https://docs.nvidia.com/datacenter/cloud-native/ .'
        ;;
      '@@NO_GPU@@'*) [[ "$1" == yes ]] || printf '%s\n' "${line#@@NO_GPU@@}" ;;
      '@@SHMEM@@'*) [[ "$2" == yes ]] || printf '%s\n' "${line#@@SHMEM@@}" ;;
      *) printf '%s\n' "$line" ;;
    esac
  done <"$IMAGE_DIR/banner.txt"
}

# Deterministic, docker-looking names for containers started without --name.
sim_generated_name() {
  local adjectives=(admiring brave clever eager focused gallant jolly keen nifty quirky)
  local nouns=(turing hopper lovelace knuth ritchie thompson liskov dijkstra shannon noether)
  local seed
  seed=$(( 16#$(sim_hash "$SIM_HOSTNAME/$(sim_now_ms)/$RANDOM" | cut -c1-6) ))
  echo "${adjectives[seed % 10]}_${nouns[(seed / 10) % 10]}"
}

sim_docker_run() {
  local name='' detach=no remove=no entrypoint='' gpus=no shm=no
  SIM_RUN_ENV=()
  while (( $# )); do
    case "$1" in
      --) shift; break ;;
      --*=*) local option="${1%%=*}" value="${1#*=}"; shift; set -- "$option" "$value" "$@"; continue ;;
      -d | --detach) detach=yes ;;
      --rm) remove=yes ;;
      --name) name="$2"; shift ;;
      -e | --env) SIM_RUN_ENV+=("$2"); shift ;;
      --entrypoint) entrypoint="$2"; shift ;;
      --gpus) gpus=yes; shift ;;
      --ipc) [[ "$2" == host ]] && shm=yes; shift ;;
      --shm-size) shm=yes; shift ;;
      -[dit]*) [[ "$1" == *d* ]] && detach=yes ;;
      -*) if sim_option_takes_value "$1"; then shift; fi ;;
      *) break ;;
    esac
    shift
  done
  (( $# )) || sim_die '"docker run" requires at least 1 argument.' 125
  local image="$1"
  shift
  local command=("$@")
  [[ -n "$entrypoint" ]] && command=("$entrypoint" "${command[@]}")
  (( ${#command[@]} )) || command=(/bin/bash)

  [[ -z "$name" ]] && name="$(sim_generated_name)"
  if sim_container_exists "$name"; then
    echo "docker: Error response from daemon: Conflict. The container name \"/$name\" is already in use by container \"$(cat "$(sim_container_dir "$name")/id")\". You have to remove (or rename) that container to be able to reuse that name." >&2
    exit 125
  fi
  sim_docker_ensure_image "$image" || exit 125
  sim_image_load "$image"
  sim_container_create "$name" "$image" "${command[*]}"
  local dir status=0
  dir="$(sim_container_dir "$name")"

  if [[ "$detach" == yes ]]; then
    sim_container_banner "$gpus" "$shm" >>"$dir/log"
    rm -f "$dir/keeps-running"
    sim_container_process "$image" "$name" 1 "${command[@]}" >>"$dir/log" 2>&1 </dev/null || status=$?
    if (( status != 0 )) || [[ ! -f "$dir/keeps-running" ]]; then
      sim_container_stop "$name" "$status"
    fi
    cat "$dir/id"
    if [[ "$remove" == yes ]] && ! sim_container_running "$name"; then rm -rf "$dir"; fi
    return 0
  fi

  sim_container_banner "$gpus" "$shm"
  sim_container_process "$image" "$name" 0 "${command[@]}" || status=$?
  sim_container_stop "$name" "$status"
  [[ "$remove" == yes ]] && rm -rf "$dir"
  return "$status"
}

sim_docker_exec() {
  local detach=no
  SIM_RUN_ENV=()
  while (( $# )); do
    case "$1" in
      --*=*) local option="${1%%=*}" value="${1#*=}"; shift; set -- "$option" "$value" "$@"; continue ;;
      -d | --detach) detach=yes ;;
      -e | --env) SIM_RUN_ENV+=("$2"); shift ;;
      -[dit]*) [[ "$1" == *d* ]] && detach=yes ;;
      -*) if sim_option_takes_value "$1"; then shift; fi ;;
      *) break ;;
    esac
    shift
  done
  (( $# >= 2 )) || sim_die '"docker exec" requires at least 2 arguments.' 1
  local name="$1"
  shift
  sim_container_exists "$name" || { sim_container_not_found "$name"; exit 1; }
  local dir
  dir="$(sim_container_dir "$name")"
  if ! sim_container_running "$name"; then
    echo "Error response from daemon: container $(cat "$dir/id") is not running" >&2
    exit 1
  fi
  if [[ "$detach" == yes ]]; then
    # Like docker: the output of a detached exec goes nowhere the user can read back.
    sim_container_process "$(cat "$dir/image")" "$name" 1 "$@" >>"$dir/exec-detached.log" 2>&1 </dev/null || true
    return 0
  fi
  sim_container_process "$(cat "$dir/image")" "$name" 0 "$@"
}

sim_container_status() { # name
  local dir
  dir="$(sim_container_dir "$1")"
  if sim_container_running "$1"; then
    echo "Up $(sim_ago "$(cat "$dir/created")" | sed 's/ ago$//')"
  else
    echo "Exited ($(cat "$dir/exit-code" 2>/dev/null || echo 0)) $(sim_ago "$(cat "$dir/finished" 2>/dev/null || cat "$dir/created")")"
  fi
}

# One --format template filled for one container; "\t" in the template is a tab, as in docker.
sim_ps_format() { # template name
  local line="$1" name="$2" dir
  dir="$(sim_container_dir "$name")"
  line="${line//\{\{.Names\}\}/$name}"
  line="${line//\{\{.Image\}\}/$(cat "$dir/image")}"
  line="${line//\{\{.ID\}\}/$(cut -c1-12 "$dir/id")}"
  line="${line//\{\{.Status\}\}/$(sim_container_status "$name")}"
  local command
  command="$(cat "$dir/command")"
  (( ${#command} > 20 )) && command="${command:0:19}…"
  line="${line//\{\{.Command\}\}/\"$command\"}"
  line="${line//\{\{.State\}\}/$(cat "$dir/state")}"
  line="${line//\{\{.CreatedAt\}\}/$(date -d "@$(( $(cat "$dir/created") / 1000 ))" '+%Y-%m-%d %H:%M:%S %z %Z')}"
  line="${line//\{\{.RunningFor\}\}/$(sim_ago "$(cat "$dir/created")")}"
  line="${line//\{\{.Ports\}\}/ }"
  printf '%s\n' "${line//\\t/$'\t'}"
}

sim_docker_ps() {
  local all=no quiet=no format='' filter_name=''
  while (( $# )); do
    case "$1" in
      -a | --all) all=yes ;;
      -q | --quiet) quiet=yes ;;
      -aq | -qa) all=yes; quiet=yes ;;
      --format) format="$2"; shift ;;
      --format=*) format="${1#--format=}" ;;
      -f | --filter) [[ "$2" == name=* ]] && filter_name="${2#name=}"; shift ;;
      --filter=name=*) filter_name="${1#--filter=name=}" ;;
    esac
    shift
  done
  local table=no
  if [[ -z "$format" && "$quiet" == no ]]; then
    format='table {{.ID}}\t{{.Image}}\t{{.Command}}\t{{.RunningFor}}\t{{.Status}}\t{{.Ports}}\t{{.Names}}'
  fi
  if [[ "$format" == table* ]]; then
    table=yes
    format="${format#table}"
    format="${format# }"
  fi
  local name header
  {
    if [[ "$table" == yes ]]; then
      header="$format"
      header="${header//\{\{.ID\}\}/CONTAINER ID}"
      header="${header//\{\{.Names\}\}/NAMES}"
      header="${header//\{\{.Image\}\}/IMAGE}"
      header="${header//\{\{.Command\}\}/COMMAND}"
      header="${header//\{\{.RunningFor\}\}/CREATED}"
      header="${header//\{\{.CreatedAt\}\}/CREATED AT}"
      header="${header//\{\{.Status\}\}/STATUS}"
      header="${header//\{\{.State\}\}/STATE}"
      header="${header//\{\{.Ports\}\}/PORTS}"
      printf '%s\n' "${header//\\t/$'\t'}"
    fi
    for name in $(sim_container_names); do
      [[ "$all" == yes ]] || sim_container_running "$name" || continue
      [[ -z "$filter_name" || "$name" == *"$filter_name"* ]] || continue
      if [[ "$quiet" == yes ]]; then cut -c1-12 "$(sim_container_dir "$name")/id"; else sim_ps_format "$format" "$name"; fi
    done
  } | if [[ "$table" == yes ]]; then sim_table; else cat; fi
}

sim_docker_stop() { # [-t N] name...
  local name status=0
  for name in "$@"; do
    case "$name" in -t | --time) continue ;; -*) continue ;; esac
    [[ "$name" =~ ^[0-9]+$ ]] && continue
    if sim_container_exists "$name"; then
      sim_container_stop "$name" 137
      echo "$name"
    else
      sim_container_not_found "$name" || status=1
    fi
  done
  return "$status"
}

sim_docker_rm() { # [-f] name...
  local force=no name status=0
  for name in "$@"; do [[ "$name" == -f || "$name" == --force || "$name" == -fv || "$name" == -vf ]] && force=yes; done
  for name in "$@"; do
    [[ "$name" == -* ]] && continue
    if ! sim_container_exists "$name"; then
      # docker rm -f of a missing container is silent and succeeds (docker ≥ 23).
      [[ "$force" == yes ]] && continue
      sim_container_not_found "$name" || status=1
      continue
    fi
    if sim_container_running "$name" && [[ "$force" == no ]]; then
      echo "Error response from daemon: cannot remove container \"/$name\": container is running: stop the container before removing or force remove" >&2
      status=1
      continue
    fi
    sim_container_stop "$name"
    rm -rf "$(sim_container_dir "$name")"
    echo "$name"
  done
  return "$status"
}

sim_docker_logs() { # [-f] [--tail N] name
  local tail_lines='' follow=no name=''
  while (( $# )); do
    case "$1" in
      -f | --follow) follow=yes ;;
      -n | --tail) tail_lines="$2"; shift ;;
      --tail=* | -n=*) tail_lines="${1#*=}" ;;
      --since | --until) shift ;;
      -t | --timestamps | --details) ;;
      *) name="$1" ;;
    esac
    shift
  done
  sim_container_exists "$name" || { sim_container_not_found "$name"; exit 1; }
  local log
  log="$(sim_container_dir "$name")/log"
  if [[ "$follow" == yes ]]; then
    # A real -f never ends; this one ends when the container stops or its model finished loading.
    local state
    while sim_container_running "$name"; do
      state="$(sim_serve_state)"
      [[ "$state" == loading ]] || break
      /bin/sleep 0.2
    done
    /bin/sleep 0.1
  fi
  if [[ -n "$tail_lines" && "$tail_lines" != all ]]; then tail -n "$tail_lines" "$log"; else cat "$log"; fi
}

sim_docker_inspect_container() { # [--format T] name
  local format='' name=''
  while (( $# )); do
    case "$1" in
      -f | --format) format="$2"; shift ;;
      --format=*) format="${1#--format=}" ;;
      --type) shift ;;
      *) name="$1" ;;
    esac
    shift
  done
  if ! sim_container_exists "$name"; then
    echo '[]'
    echo "Error: No such container: $name" >&2
    return 1
  fi
  local dir running=false state
  dir="$(sim_container_dir "$name")"
  sim_container_running "$name" && running=true
  state="$(cat "$dir/state")"
  case "$format" in
    '') cat <<EOF
[
    {
        "Id": "$(cat "$dir/id")",
        "Name": "/$name",
        "State": { "Status": "$state", "Running": $running, "ExitCode": $(cat "$dir/exit-code" 2>/dev/null || echo 0) },
        "Config": { "Image": "$(cat "$dir/image")" }
    }
]
EOF
    ;;
    *State.Running*) echo "$running" ;;
    *State.Status*) echo "$state" ;;
    *Config.Image*) cat "$dir/image" ;;
    *'{{.Id}}'*) cat "$dir/id" ;;
    *) echo '<no value>' ;;
  esac
}

# shellcheck shell=bash
# docker pull / images / image inspect / rmi of the simulated docker. Needs spark-sim.sh.
# Known images are the folders of ../images; pulling one only writes a line in $SPARK_SIM_STATE/images.

# Seconds to sleep per pull step, so a whole pull takes SPARK_SIM_PULL_SECONDS (default: no delay).
sim_pull_step_delay() { # steps
  awk -v total="${SPARK_SIM_PULL_SECONDS:-0}" -v steps="$1" 'BEGIN { printf "%.3f\n", (steps > 0 ? total / steps : 0) }'
}

# Prints what `docker pull` prints (on stdout) and records the image; fails like docker for
# images no registry has.
sim_docker_pull() { # image [quiet]
  local ref quiet="${2:-}"
  ref="$(sim_image_ref "$1")"
  local repository="${ref%:*}" tag="${ref##*:}"
  if ! sim_image_load "$ref"; then
    echo "Error response from daemon: manifest for $ref not found: manifest unknown: manifest unknown" >&2
    return 1
  fi
  # A reference pinned by digest (repo[:tag]@sha256:…) names exactly one manifest: the catalogue's, or none.
  if [[ "$1" == *@sha256:* && "${1##*@}" != "$IMAGE_DIGEST" ]]; then
    echo "Error response from daemon: manifest for ${1#docker.io/} not found: manifest unknown: manifest unknown" >&2
    return 1
  fi
  if [[ "$IMAGE_PULLABLE" != yes ]]; then
    echo "Error response from daemon: pull access denied for $repository, repository does not exist or may require 'docker login': denied: requested access to the resource is denied" >&2
    return 1
  fi
  [[ -n "$quiet" ]] || echo "$tag: Pulling from $repository"
  if sim_image_present "$ref"; then
    if [[ -z "$quiet" ]]; then
      echo "Digest: $IMAGE_DIGEST"
      echo "Status: Image is up to date for $ref"
    fi
    echo "docker.io/$ref"
    return 0
  fi
  local layers layer delay
  read -r -a layers <<<"$IMAGE_LAYERS"
  delay="$(sim_pull_step_delay $(( ${#layers[@]} * 2 )))"
  if [[ -z "$quiet" ]]; then
    for layer in "${layers[@]}"; do echo "$layer: Pulling fs layer"; done
    for layer in "${layers[@]}"; do
      /bin/sleep "$delay"
      echo "$layer: Verifying Checksum"
      echo "$layer: Download complete"
    done
    for layer in "${layers[@]}"; do
      /bin/sleep "$delay"
      echo "$layer: Pull complete"
    done
    echo "Digest: $IMAGE_DIGEST"
    echo "Status: Downloaded newer image for $ref"
  else
    /bin/sleep "${SPARK_SIM_PULL_SECONDS:-0}"
  fi
  # Recorded only once complete: a pull killed by a timeout leaves no image behind.
  sim_image_record "$ref"
  echo "docker.io/$ref"
}

# `docker run` of an absent image pulls it first, talking on stderr.
sim_docker_ensure_image() { # image
  sim_image_present "$1" && return 0
  echo "Unable to find image '$(sim_image_ref "$1")' locally" >&2
  if ! sim_docker_pull "$1" >&2; then
    return 125
  fi
}

sim_docker_images() { # [repository filter]
  local filter="${1:-}" file ref repository tag
  {
  printf 'REPOSITORY\tTAG\tIMAGE ID\tCREATED\tSIZE\n'
  for file in "$SIM_STATE"/images/*; do
    [[ -f "$file" ]] || continue
    read -r ref <"$file"
    repository="${ref%:*}" tag="${ref##*:}"
    if [[ -n "$filter" && "$filter" != "$repository" && "$(sim_image_ref "$filter")" != "$ref" ]]; then continue; fi
    sim_image_load "$ref" || continue
    local created_ms
    created_ms="$(( $(date -d "$IMAGE_CREATED" +%s) * 1000 ))"
    printf '%s\t%s\t%s\t%s\t%s\n' "$repository" "$tag" "${IMAGE_ID:7:12}" "$(sim_ago "$created_ms")" "$IMAGE_SIZE"
  done
  } | sim_table
}

sim_image_json() { # ref
  local digests='[]'
  [[ -n "$IMAGE_DIGEST" ]] && digests="[\"${1%:*}@$IMAGE_DIGEST\"]"
  cat <<EOF
    {
        "Id": "$IMAGE_ID",
        "RepoTags": ["$1"],
        "RepoDigests": $digests,
        "Created": "$IMAGE_CREATED",
        "Config": {
            "Env": ["PATH=/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "NVIDIA_VISIBLE_DEVICES=all"],
            "Cmd": ["/bin/bash"]
        },
        "Architecture": "arm64",
        "Os": "linux",
        "Size": $IMAGE_SIZE_BYTES
    }
EOF
}

# The few --format templates worth answering; anything else prints what docker prints for a missing field.
sim_image_format() { # template ref
  case "$1" in
    *'{{.Id}}'* | *'{{.ID}}'*) echo "$IMAGE_ID" ;;
    *'{{.Created}}'*) echo "$IMAGE_CREATED" ;;
    *'{{.Size}}'*) echo "$IMAGE_SIZE_BYTES" ;;
    *'{{.Architecture}}'*) echo arm64 ;;
    *'{{.Os}}'*) echo linux ;;
    *'index .RepoDigests 0'*) if [[ -n "$IMAGE_DIGEST" ]]; then echo "${2%:*}@$IMAGE_DIGEST"; else echo '<no value>'; fi ;;
    *RepoDigests*) if [[ -n "$IMAGE_DIGEST" ]]; then echo "[${2%:*}@$IMAGE_DIGEST]"; else echo '[]'; fi ;;
    *RepoTags*) echo "[$2]" ;;
    *) echo '<no value>' ;;
  esac
}

# `docker image inspect`: exit 1 for an absent image, which deployment guards rely on.
sim_docker_image_inspect() { # [--format T | -f T] image...
  local format='' refs=() ref status=0 first=yes
  while (( $# )); do
    case "$1" in
      -f | --format) format="$2"; shift 2 ;;
      --format=*) format="${1#--format=}"; shift ;;
      *) refs+=("$1"); shift ;;
    esac
  done
  (( ${#refs[@]} )) || sim_die '"docker image inspect" requires at least 1 argument.' 1
  [[ -n "$format" ]] || echo '['
  for ref in "${refs[@]}"; do
    if ! sim_image_present "$ref" || ! sim_image_load "$ref"; then
      status=1
      continue
    fi
    if [[ -n "$format" ]]; then
      sim_image_format "$format" "$(sim_image_ref "$ref")"
    else
      [[ "$first" == yes ]] || echo ','
      first=no
      sim_image_json "$(sim_image_ref "$ref")"
    fi
  done
  [[ -n "$format" ]] || echo ']'
  if (( status )); then
    for ref in "${refs[@]}"; do sim_image_present "$ref" || echo "Error: No such image: $ref" >&2; done
  fi
  return "$status"
}

sim_docker_rmi() { # [-f] image...
  local ref status=0
  for ref in "$@"; do
    [[ "$ref" == -* ]] && continue
    if sim_image_present "$ref"; then
      sim_image_load "$ref" || true
      rm -f "$SIM_STATE/images/$(sim_image_key "$ref")"
      echo "Untagged: $(sim_image_ref "$ref")"
      echo "Deleted: ${IMAGE_ID:-unknown}"
    else
      echo "Error response from daemon: No such image: $(sim_image_ref "$ref")" >&2
      status=1
    fi
  done
  return "$status"
}

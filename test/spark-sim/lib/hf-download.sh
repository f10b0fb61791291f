# shellcheck shell=bash
# `hf download` of the simulated hub. Needs spark-sim.sh. Writes a small marker tree where the
# real CLI puts the weights (the HF cache under $HF_HOME or ~/.cache/huggingface, or
# --local-dir) and prints that folder last, as the real CLI does. SPARK_SIM_DOWNLOAD_SECONDS
# spreads the files over that many seconds (default: none).

# tqdm's closing line: "Fetching 58 files: 100%|██████████| 58/58 [29:52<00:00, 30.90s/it]"
sim_hf_progress_line() { # total elapsed_seconds
  local rate
  if (( $2 >= $1 )); then
    rate="$(awk -v e="$2" -v n="$1" 'BEGIN { printf "%.2fs/it", e / n }')"
  else
    rate="$(awk -v e="$2" -v n="$1" 'BEGIN { printf "%.2fit/s", n / (e > 0 ? e : 0.2) }')"
  fi
  printf 'Fetching %d files: 100%%|██████████| %d/%d [%02d:%02d<00:00, %s]\n' "$1" "$1" "$1" $(( $2 / 60 )) $(( $2 % 60 )) "$rate"
}

sim_hf_download() { # tool args...
  local tool="$1"
  shift
  local repo='' local_dir='' cache_dir='' revision='main' includes=()
  while (( $# )); do
    case "$1" in
      --local-dir) local_dir="$2"; shift ;;
      --cache-dir) cache_dir="$2"; shift ;;
      --revision) revision="$2"; shift ;;
      --include) includes+=("$2"); shift ;;
      --token | --exclude | --repo-type | --max-workers | --local-dir-use-symlinks | --format) shift ;;
      --*=*) local option="${1%%=*}" value="${1#*=}"; shift; set -- "$option" "$value" "$@"; continue ;;
      --*) ;;
      *) if [[ -z "$repo" ]]; then repo="$1"; else includes+=("$1"); fi ;;
    esac
    shift
  done
  [[ -n "$repo" ]] || sim_die "usage: $tool download REPO_ID [FILENAMES...] [--local-dir DIR]" 2
  if ! sim_model_info "$repo" >/dev/null; then
    {
      echo 'huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-67bf0d5e-4c1b2a7f3d9e8a6b5c4d3e2f)'
      echo ''
      echo "Repository Not Found for url: https://huggingface.co/api/models/$repo/revision/$revision."
    } >&2
    return 1
  fi

  local folder hub_dir rev
  rev="$(sim_model_field "$repo" revision)"
  if [[ -n "$local_dir" ]]; then
    folder="$local_dir"
  else
    # --cache-dir names the hub folder itself; HF_HOME the folder above it.
    hub_dir="${cache_dir:-${HF_HOME:-$HOME/.cache/huggingface}/hub}/models--${repo//\//--}"
    mkdir -p "$hub_dir/refs"
    echo "$rev" >"$hub_dir/refs/main"
    folder="$hub_dir/snapshots/$rev"
  fi
  mkdir -p "$folder"

  local names=() name pattern
  if (( ${#includes[@]} )); then
    while read -r name; do
      for pattern in "${includes[@]}"; do
        # shellcheck disable=SC2053 # a glob on purpose, as --include is
        [[ "$name" == $pattern ]] && { names+=("$name"); break; }
      done
    done < <(sim_model_files "$repo")
  else
    mapfile -t names < <(sim_model_files "$repo")
  fi

  local delay started
  started="$(date +%s)"
  delay="$(awk -v total="${SPARK_SIM_DOWNLOAD_SECONDS:-0}" -v n="${#names[@]}" 'BEGIN { printf "%.3f\n", (n > 0 ? total / n : 0) }')"
  for name in "${names[@]}"; do
    [[ -f "$folder/$name" ]] && continue # already there: the real CLI skips it too
    /bin/sleep "$delay"
    sim_model_write_file "$repo" "$folder" "$name"
  done
  # The real CLI downloads into blobs/<hash>.incomplete and renames each when whole: a finished
  # download leaves none (an interrupted one does, and its snapshot may lack shards).
  [[ -n "${hub_dir:-}" ]] && rm -f "$hub_dir"/blobs/*.incomplete
  sim_hf_progress_line "${#names[@]}" $(( $(date +%s) - started )) >&2
  printf '%s\n' "$folder"
}

# shellcheck shell=bash
# The two DGX Sparks of the recorded session (sessions/README.md), as the simulation first
# shows them: spark-1a32 (head) runs a GLM cluster, an nginx proxy, embeddings and a reranker,
# all under systemd; spark-5be3 (worker) runs only its own embeddings server. Sourced by spark-sim.sh.

if [[ -n "${SPARK_SIM_ROLE:-}" ]]; then
  SIM_ROLE="$SPARK_SIM_ROLE"
elif [[ "$SIM_HOSTNAME" == spark-5be3 ]]; then
  SIM_ROLE='worker'
else
  SIM_ROLE='head'
fi

SIM_OLD_VLLM_IMAGE='vllm-spark:v0.14.0rc2.dev262'
SIM_IB_INTERFACE=enp1s0f1np1
SIM_ROCE_DEVICE=rocep1s0f1

# Addresses are data printed by the stubs (ip, hostname -I, ray); nothing ever connects to them.
sim_ib_ip() { if [[ "${1:-$SIM_ROLE}" == worker ]]; then echo 192.168.200.2; else echo 192.168.200.1; fi; }
sim_management_ip() { if [[ "$SIM_ROLE" == worker ]]; then echo 10.1.230.181; else echo 10.1.230.180; fi; }
sim_link_local_ip() { if [[ "$SIM_ROLE" == worker ]]; then echo fe80::5e25:73ff:fe1a:5be9; else echo fe80::5e25:73ff:fe1a:2c41; fi; }

# ---------------------------------------------------------------- systemd services

sim_services() {
  if [[ "$SIM_ROLE" == head ]]; then echo vllm-cluster vllm-embeddings vllm-proxy vllm-reranker; else echo vllm-embeddings; fi
}

sim_service_known() { [[ " $(sim_services) " == *" $1 "* ]]; }

# "image|model|port|description" of a service; each runs in a container named after it.
sim_service_spec() {
  case "$1" in
    vllm-cluster) echo "$SIM_OLD_VLLM_IMAGE|zai-org/GLM-4.7-Flash-NVFP4|8100|vLLM cluster: GLM-4.7-Flash-NVFP4 (port 8100)" ;;
    vllm-embeddings) echo "$SIM_OLD_VLLM_IMAGE|Qwen/Qwen3-Embedding-4B|8001|vLLM embeddings: Qwen3-Embedding-4B (port 8001)" ;;
    vllm-reranker) echo "$SIM_OLD_VLLM_IMAGE|Qwen/Qwen3-Reranker-4B|8002|vLLM reranker: Qwen3-Reranker-4B (port 8002)" ;;
    vllm-proxy) echo "nginx:1.27-alpine||8000|nginx proxy for the vLLM endpoints (port 8000)" ;;
    *) return 1 ;;
  esac
}

sim_service_field() { # service field(image|model|port|description)
  local image model port description
  IFS='|' read -r image model port description <<<"$(sim_service_spec "$1")"
  case "$2" in image) echo "$image" ;; model) echo "$model" ;; port) echo "$port" ;; description) echo "$description" ;; esac
}

sim_service_port_owner() { # port → service, or fails
  local service
  for service in $(sim_services); do
    [[ "$(sim_service_field "$service" port)" == "$1" ]] && { echo "$service"; return 0; }
  done
  return 1
}

# Starts a service: its container (created once, like `docker create`) runs again.
sim_service_start() { # service [created_ms]
  local image model command
  image="$(sim_service_field "$1" image)"
  model="$(sim_service_field "$1" model)"
  command="nginx -g 'daemon off;'"
  [[ -n "$model" ]] && command="vllm serve $model --port $(sim_service_field "$1" port)"
  echo active >"$SIM_STATE/services/$1"
  if sim_container_exists "$1"; then
    echo running >"$SIM_STATE/containers/$1/state"
  else
    sim_container_create "$1" "$image" "$command" "${2:-}"
  fi
  echo "$1" >"$SIM_STATE/containers/$1/service"
}

sim_service_stop() {
  echo inactive >"$SIM_STATE/services/$1"
  if sim_container_exists "$1"; then sim_container_stop "$1" 0; fi
  return 0
}

sim_service_active() { [[ "$(cat "$SIM_STATE/services/$1" 2>/dev/null)" == active ]]; }

# ---------------------------------------------------------------- the simulated Hugging Face hub

# repo → "architecture files size revision"
sim_model_info() {
  case "$1" in
    Qwen/Qwen3.5-122B-A10B-FP8) echo 'Qwen3_5MoeForConditionalGeneration 58 119G 90cd75d4a3808a3f0e950bc914bcf53dd80580d0' ;;
    Qwen/Qwen3.5-122B-A10B) echo 'Qwen3_5MoeForConditionalGeneration 48 228G 1b8e5c0a77d2f39e4c6a1d05b3f7e9a2c8d4b6f0' ;;
    Qwen/Qwen3-Embedding-4B) echo 'Qwen3ForCausalLM 13 7.6G 5cf2132abc99cad020ac570b19d031efec650f2b' ;;
    Qwen/Qwen3-Reranker-4B) echo 'Qwen3ForCausalLM 13 7.6G f16fc5d5d2b9b1d0db8280929242745d79794ef5' ;;
    zai-org/GLM-4.7-Flash-NVFP4) echo 'Glm4MoeLiteForCausalLM 16 19G 3e0d2a71c94f4b8a9e6d5c2b1a0f9e8d7c6b5a43' ;;
    *) return 1 ;;
  esac
}

sim_model_field() { # repo field(architecture|files|size|revision)
  local architecture files size revision
  read -r architecture files size revision <<<"$(sim_model_info "$1")"
  case "$2" in architecture) echo "$architecture" ;; files) echo "$files" ;; size) echo "$size" ;; revision) echo "$revision" ;; esac
}

SIM_MODEL_SIDE_FILES=(config.json generation_config.json tokenizer.json tokenizer_config.json vocab.json merges.txt chat_template.jinja README.md model.safetensors.index.json)

# The files of a model repo: its weight shards first, the small files last (so a download cut
# short leaves no config.json behind).
sim_model_files() { # repo
  local files shards i
  files="$(sim_model_field "$1" files)"
  shards=$(( files - ${#SIM_MODEL_SIDE_FILES[@]} ))
  for (( i = 1; i <= shards; i++ )); do printf 'model-%05d-of-%05d.safetensors\n' "$i" "$shards"; done
  printf '%s\n' "${SIM_MODEL_SIDE_FILES[@]}"
}

# config.json as the hub serves it (Qwen3.5 is a hybrid: 3 linear-attention layers per full one).
sim_model_config_json() { # repo
  local architecture layers=''
  architecture="$(sim_model_field "$1" architecture)"
  if [[ "$architecture" == Qwen3_5* ]]; then
    local i
    for (( i = 1; i <= 48; i++ )); do
      if (( i % 4 == 0 )); then layers+='"full_attention"'; else layers+='"linear_attention"'; fi
      (( i < 48 )) && layers+=', '
    done
    printf '{\n  "architectures": ["%s"],\n  "model_type": "qwen3_5_moe",\n  "text_config": {\n    "model_type": "qwen3_5_moe_text",\n    "num_hidden_layers": 48,\n    "num_experts": 256,\n    "num_experts_per_tok": 8,\n    "layer_types": [%s]\n  },\n  "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}\n}\n' "$architecture" "$layers"
  else
    printf '{\n  "architectures": ["%s"],\n  "_name_or_path": "%s"\n}\n' "$architecture" "$1"
  fi
}

# The shard index as the hub serves it: every weight file of the repo is named in its weight_map.
sim_model_index_json() { # repo
  local shard first=1
  printf '{\n  "metadata": {"total_size": 0},\n  "weight_map": {\n'
  while read -r shard; do
    (( first )) || printf ',\n'
    first=0
    printf '    "spark_sim.%s": "%s"' "${shard%.safetensors}" "$shard"
  done < <(sim_model_files "$1" | grep '\.safetensors$')
  printf '\n  }\n}\n'
}

sim_model_write_file() { # repo folder file
  case "$3" in
    config.json) sim_model_config_json "$1" >"$2/$3" ;;
    model.safetensors.index.json) sim_model_index_json "$1" >"$2/$3" ;;
    *) printf 'spark-sim placeholder for %s of %s\n' "$3" "$1" >"$2/$3" ;;
  esac
}

sim_hf_cache_dir() { # repo [hf home]
  printf '%s\n' "${2:-$HOME/.cache/huggingface}/hub/models--${1//\//--}"
}

# Complete only once its last file (config.json comes late) and every shard are there.
sim_model_cached() { # repo
  local dir revision
  dir="$(sim_hf_cache_dir "$1")"
  revision="$(cat "$dir/refs/main" 2>/dev/null)" || return 1
  [[ -f "$dir/snapshots/$revision/model.safetensors.index.json" && -f "$dir/snapshots/$revision/config.json" ]]
}

sim_model_seed_cache() { # repo: a complete snapshot, written at once
  local dir revision name
  dir="$(sim_hf_cache_dir "$1")"
  revision="$(sim_model_field "$1" revision)"
  mkdir -p "$dir/refs" "$dir/snapshots/$revision"
  echo "$revision" >"$dir/refs/main"
  while read -r name; do sim_model_write_file "$1" "$dir/snapshots/$revision" "$name"; done < <(sim_model_files "$1")
}

# ---------------------------------------------------------------- first use

# Seeds the machine as the recorded session found it, once per state folder.
sim_init() {
  [[ -f "$SIM_STATE/.seeded" ]] && return 0
  mkdir -p "$SIM_STATE" "$SIM_CLUSTER"
  sim_lock
  if [[ ! -f "$SIM_STATE/.seeded" ]]; then
    mkdir -p "$SIM_STATE/images" "$SIM_STATE/containers" "$SIM_STATE/services" "$SIM_STATE/pip" "$SIM_CLUSTER/ray/nodes"
    local now service minutes=0 days=6
    now="$(sim_now_ms)"
    [[ "$SIM_ROLE" == worker ]] && days=12
    sim_image_record "$SIM_OLD_VLLM_IMAGE"
    [[ "$SIM_ROLE" == head ]] && sim_image_record nginx:1.27-alpine
    # Created a minute apart, so `docker ps` (newest first) lists them as on the recorded head.
    for service in vllm-embeddings vllm-reranker vllm-proxy vllm-cluster; do
      sim_service_known "$service" || continue
      sim_service_start "$service" $(( now - days * 86400000 - (3 - minutes) * 60000 ))
      minutes=$(( minutes + 1 ))
    done
    sim_model_seed_cache Qwen/Qwen3-Embedding-4B
    if [[ "$SIM_ROLE" == head ]]; then
      sim_model_seed_cache Qwen/Qwen3-Reranker-4B
      sim_model_seed_cache zai-org/GLM-4.7-Flash-NVFP4
    fi
    touch "$SIM_STATE/.seeded"
  fi
  sim_unlock
}

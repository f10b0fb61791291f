# shellcheck shell=bash disable=SC2034 # status, body and content_type are the caller's
# What the simulated curl gets back: the HTTP servers the simulation runs on this host, and a
# few read-only answers of the Hugging Face hub. Each answer sets `status`, `body` and maybe
# `content_type`, variables of the calling curl. Needs spark-sim.sh.

sim_http_reason() {
  case "$1" in 200) echo OK ;; 404) echo 'Not Found' ;; 405) echo 'Method Not Allowed' ;; *) echo '' ;; esac
}

# Which server answers on a local port: "serve" (the model being deployed) or a service name.
sim_http_server_on() { # port
  if [[ -f "$SIM_STATE/serve" && "$(sim_serve_field port)" == "$1" ]]; then
    [[ "$(sim_serve_state)" == ready ]] && { echo serve; return 0; }
    return 1
  fi
  local service
  service="$(sim_service_port_owner "$1")" || return 1
  sim_container_running "$service" || return 1
  echo "$service"
}

sim_http_models_json() { # model id
  local created
  created="$(date +%s)"
  printf '{"object":"list","data":[{"id":"%s","object":"model","created":%s,"owned_by":"vllm","root":"%s","parent":null,"max_model_len":262144,"permission":[{"id":"modelperm-%s","object":"model_permission","created":%s,"allow_create_engine":false,"allow_sampling":true,"allow_logprobs":true,"allow_search_indices":false,"allow_view":true,"allow_fine_tuning":false,"organization":"*","group":null,"is_blocking":false}]}]}' \
    "$1" "$created" "$1" "$(sim_hash "$1/$created" | cut -c1-32)" "$created"
}

# A fixed answer per known question, so a replay sees the recorded one ("391" for 17 * 23).
sim_http_chat_json() { # model request
  local content='Hello! I am Qwen3.5, served across two DGX Sparks. How can I help?' prompt=14 completion=17
  if [[ "$2" == *'17 * 23'* ]]; then content='391'; prompt=29; completion=3; fi
  printf '{"id":"chatcmpl-%s","object":"chat.completion","created":%s,"model":"%s","choices":[{"index":0,"message":{"role":"assistant","content":"%s","refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":[],"reasoning_content":null},"logprobs":null,"finish_reason":"stop","stop_reason":null,"token_ids":null}],"service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":%d,"total_tokens":%d,"completion_tokens":%d,"prompt_tokens_details":null},"prompt_logprobs":null,"prompt_token_ids":null,"kv_transfer_params":null}' \
    "$(sim_hash "$2" | cut -c1-32)" "$(date +%s)" "$1" "$content" "$prompt" $(( prompt + completion )) "$completion"
}

# With "ignore_eos": true the server generates exactly max_tokens, as the recorded speed test did.
sim_http_completion_json() { # model request
  local completion=16 prompt=13 max
  max="$(sed -n 's/.*"max_tokens"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p' <<<"$2")"
  if [[ -n "$max" ]]; then
    if [[ "$2" == *'"ignore_eos"'*true* ]] || (( max < completion )); then completion="$max"; fi
  fi
  printf '{"id":"cmpl-%s","object":"text_completion","created":%s,"model":"%s","choices":[{"index":0,"text":" Two computers, one brain: they took turns thinking.","logprobs":null,"finish_reason":"length","stop_reason":null,"prompt_logprobs":null}],"service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":%d,"total_tokens":%d,"completion_tokens":%d,"prompt_tokens_details":null},"kv_transfer_params":null}' \
    "$(sim_hash "$2" | cut -c1-32)" "$(date +%s)" "$1" "$prompt" $(( prompt + completion )) "$completion"
}

sim_http_local() { # server method path request
  local server="$1" method="$2" path="$3" request="$4" model
  if [[ "$server" == serve ]]; then
    model="$(sim_serve_field served_name)"
  else
    model="$(sim_service_field "$server" model)"
  fi
  case "$path" in
    /health | /ping) body='' ;;
    /v1/models) body="$(sim_http_models_json "$model")" ;;
    /v1/chat/completions | /v1/completions | /v1/embeddings)
      if [[ "$method" != POST ]]; then
        status=405
        body='{"detail":"Method Not Allowed"}'
      elif [[ "$path" == /v1/chat/completions ]]; then
        body="$(sim_http_chat_json "$model" "$request")"
      elif [[ "$path" == /v1/completions ]]; then
        body="$(sim_http_completion_json "$model" "$request")"
      else
        body="{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,\"embedding\":[0.0123,-0.0456,0.0789]}],\"model\":\"$model\",\"usage\":{\"prompt_tokens\":5,\"total_tokens\":5}}"
      fi
      ;;
    /metrics)
      content_type='text/plain; version=0.0.4'
      body=$'# HELP vllm:num_requests_running Number of requests in model execution batches.\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{engine="0",model_name="'"$model"$'"} 0.0\n'
      ;;
    *) status=404; body='{"detail":"Not Found"}' ;;
  esac
}

# The hub's model search and raw files, for the models the simulation knows.
SIM_HUB_MODELS=(Qwen/Qwen3.5-122B-A10B Qwen/Qwen3.5-122B-A10B-FP8 unsloth/Qwen3.5-122B-A10B-GGUF mlx-community/Qwen3.5-122B-A10B-4bit
  Qwen/Qwen3-Embedding-4B Qwen/Qwen3-Reranker-4B zai-org/GLM-4.7-Flash-NVFP4)

sim_http_hub() { # path query
  local path="$1" query="$2"
  if [[ "$path" == /api/models ]]; then
    local search limit=20 id found=()
    search="$(sed -n 's/.*search=\([^&]*\).*/\1/p' <<<"$query")"
    limit="$(sed -n 's/.*limit=\([0-9]*\).*/\1/p' <<<"$query")"
    for id in "${SIM_HUB_MODELS[@]}"; do
      [[ -z "$search" || "${id,,}" == *"${search,,}"* ]] && found+=("{\"_id\":\"$(sim_hash "$id" | cut -c1-24)\",\"id\":\"$id\",\"modelId\":\"$id\",\"private\":false}")
    done
    body="[$(printf '%s\n' "${found[@]}" | head -n "${limit:-20}" | paste -sd, -)]"
  elif [[ "$path" =~ ^/([^/]+/[^/]+)/resolve/[^/]+/config\.json$ ]] && sim_model_info "${BASH_REMATCH[1]}" >/dev/null; then
    body="$(sim_model_config_json "${BASH_REMATCH[1]}")"
  else
    status=404
    body='{"error":"Repository not found"}'
  fi
}

#!/usr/bin/env bash
# OpenRLHF 0.11 GRPO, stage I (white-box reward), on an execsynth export (format openrlhf):
#   execsynth export --format openrlhf --split rl --split eval --out data/execsynth-openrlhf
#   MODEL=<sft checkpoint> bash training/configs/openrlhf_grpo.sh [more train_ppo_ray flags]
# One node of 8 GPUs, everything colocated; the reference recipe (8 rollouts per prompt,
# batch 128 prompts, mini-batch 64 prompts, lr 1e-6, no KL, responses up to 4096 tokens).
# The reward is `reward_func` of the installed execsynth-rewards wheel: OpenRLHF loads it
# from the module's file, which this script asks the trainer's Python for.
set -euo pipefail
DATA=${DATA:-data/execsynth-openrlhf}
MODEL=${MODEL:-saves/qwen2.5-coder-7b/execsynth-sft}
SAVE=${SAVE:-checkpoints/execsynth/openrlhf-grpo-stage1}
PYTHON=${PYTHON:-python3}
REWARD=$("$PYTHON" -c 'import training.rewards as r; print(r.__file__)')

exec "$PYTHON" -m openrlhf.cli.train_ppo_ray \
    --actor.num_nodes 1 --actor.num_gpus_per_node 8 --ref.num_nodes 1 --ref.num_gpus_per_node 8 \
    --vllm.num_engines 8 --vllm.tensor_parallel_size 1 --vllm.gpu_memory_utilization 0.6 \
    --vllm.enable_sleep --train.colocate_all --ds.zero_stage 3 --ds.param_dtype bf16 \
    --actor.model_name_or_path "$MODEL" \
    --data.prompt_dataset "$DATA/rl.jsonl" --data.input_key input --data.label_key label \
    --data.apply_chat_template --eval.dataset "$DATA/eval.jsonl" --eval.steps 50 \
    --reward.remote_url "$REWARD" \
    --algo.advantage.estimator group_norm --rollout.n_samples_per_prompt 8 \
    --rollout.batch_size 128 --train.batch_size 512 --train.micro_batch_size 4 \
    --rollout.micro_batch_size 8 --rollout.max_new_tokens 4096 --data.max_len 6144 \
    --rollout.temperature 1.0 --actor.adam.lr 1e-6 --algo.kl.init_coef 0 \
    --train.max_epochs 1 --train.num_episodes 2 --actor.gradient_checkpointing_enable \
    --ckpt.output_dir "$SAVE" --ckpt.save_steps 100 --logger.logging_steps 1 \
    "$@"

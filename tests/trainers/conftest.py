"""Fixtures for the trainer integration tests, which run inside each trainer's own virtualenv
(`make test-trainers`, scripts/trainer_envs.py), never in the service's.

Nothing is downloaded: the model is a tiny randomly initialised Qwen2 built from a config and
the tokenizer is trained here on the exported text. The exports come from `execsynth synth` +
`execsynth export` over a small batch, built once per run (EXECSYNTH_TRAINER_EXPORTS) or once
per session here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)



@pytest.fixture(scope="session", autouse=True)
def _offline() -> None:
    """The tests must never reach a hub: fail loudly if the runner forgot to say so."""
    assert os.environ.get("HF_HUB_OFFLINE") == "1", "run the trainer tests with HF_HUB_OFFLINE=1 (make test-trainers)"


@pytest.fixture(scope="session")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("EXECSYNTH_TRAINER_EXPORTS")
    if given:
        return Path(given)
    dest = tmp_path_factory.mktemp("exports")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "trainer_envs.py"), "exports", str(dest)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return dest


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _export_texts(exports: Path) -> list[str]:
    texts = []
    for row in read_jsonl(exports / "openrlhf" / "rl.jsonl") + read_jsonl(exports / "openrlhf" / "sft.jsonl"):
        texts.append(row["input"])
    for row in read_jsonl(exports / "llamafactory" / "sft.jsonl"):
        texts.extend(turn["value"] for turn in row["conversations"])
    return texts


@pytest.fixture(scope="session")
def tiny_model(exports: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer Qwen2 with random weights and a BPE tokenizer trained on the export, saved
    together in one folder that every trainer loads by path."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    out = tmp_path_factory.mktemp("tiny-qwen2")
    bpe = Tokenizer(models.BPE(unk_token=None))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(_export_texts(exports), trainers.BpeTrainer(
        vocab_size=2048, special_tokens=SPECIAL_TOKENS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                        bos_token=None, unk_token=None)
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(out)
    config = Qwen2Config(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=8192, tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id, bos_token_id=None,
    )
    Qwen2ForCausalLM(config).save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def rewards_module():
    """training.rewards as the trainer imports it: from the installed execsynth-rewards wheel."""
    import sysconfig

    import training.rewards

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    assert Path(training.rewards.__file__).resolve().is_relative_to(site), training.rewards.__file__
    return training.rewards

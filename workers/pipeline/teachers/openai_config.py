"""Validated configuration of an OpenAI-compatible teacher (the registry's "openai" kind).

One model for every OpenAI-compatible server (OpenAI, vLLM, SGLang, Ollama, llama.cpp server):
they differ only in base URL, key, model name and limits. Unknown fields are errors, so a typo
in a config file fails loudly instead of silently using a default.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator


class OpenAITeacherSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["openai"] = "openai"
    base_url: str = Field(description="e.g. https://api.openai.com/v1 or http://localhost:8000/v1")
    api_key: SecretStr | None = Field(default=None, description="None for local servers that need no key")
    model: str = Field(min_length=1)
    temperature: float = Field(default=0.8, ge=0.0, le=2.0)
    top_p: float = Field(default=0.9, gt=0.0, le=1.0)
    max_tokens: int | None = Field(default=None, ge=1)
    n: int = Field(default=1, ge=1, le=128, description="completions per prompt when the request asks for 1")
    concurrency: int = Field(default=16, ge=1, le=4096)
    max_retries: int = Field(default=5, ge=0, le=50, description="retries after the first attempt")
    request_timeout_s: float = Field(default=120.0, gt=0.0)
    backoff_base_s: float = Field(default=0.5, gt=0.0)
    backoff_max_s: float = Field(default=30.0, gt=0.0)
    requests_per_minute: float | None = Field(default=None, gt=0.0)
    tokens_per_minute: float | None = Field(default=None, gt=0.0)
    price_input_per_mtok: float = Field(default=0.0, ge=0.0)
    price_output_per_mtok: float = Field(default=0.0, ge=0.0)
    send_seed: bool = Field(default=True, description="pass the request seed (OpenAI, vLLM and llama.cpp accept it)")
    record_path: str | None = Field(default=None, description="append successful completions here for replay")

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _backoff_order(self) -> OpenAITeacherSpec:
        if self.backoff_max_s < self.backoff_base_s:
            raise ValueError("backoff_max_s must be >= backoff_base_s")
        return self

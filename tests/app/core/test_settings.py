"""Settings: embedded defaults, production values, and errors naming the variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.config import SettingsError, get_settings


def test_defaults_are_embedded_mode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    settings = get_settings()
    assert settings.embedded is True
    assert settings.data_dir == tmp_path / "execsynth-data"
    assert settings.database_url == f"sqlite:///{tmp_path / 'execsynth-data' / 'execsynth.sqlite3'}"
    assert settings.broker_url == "filesystem://"
    assert settings.default_teacher == "builtin"


def test_production_values_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXECSYNTH_DATABASE_URL", "postgresql+psycopg://u@db:5432/execsynth")
    monkeypatch.setenv("EXECSYNTH_BROKER_URL", "redis://redis:6379/0")
    monkeypatch.setenv("EXECSYNTH_SANDBOX__ISOLATION", "rlimits")
    monkeypatch.setenv("EXECSYNTH_TEACHERS", '{"gpt": {"kind": "openai", "base_url": "http://llm:8000/v1", "model": "m"}}')
    settings = get_settings()
    assert settings.embedded is False
    assert settings.database_url.startswith("postgresql+psycopg://")
    assert settings.sandbox.isolation == "rlimits"
    assert settings.teachers == {"gpt": {"kind": "openai", "base_url": "http://llm:8000/v1", "model": "m"}}


@pytest.mark.parametrize(("teachers", "default", "message"), [
    ('{"gpt": {"kind": "opneai"}}', None, "EXECSYNTH_TEACHERS: teacher 'gpt': unknown kind 'opneai'"),
    ('{"gpt": {"kind": "openai", "model": "m"}}', None, "EXECSYNTH_TEACHERS: teacher 'gpt' (openai): base_url: Field required"),
    ('{"gpt": {"kind": "openai", "base_url": "http://x", "model": "m", "modle": 1}}', None, "modle: Extra inputs"),
    ("{}", "gpt", "EXECSYNTH_DEFAULT_TEACHER: no teacher named 'gpt'"),
])
def test_a_bad_teacher_config_is_refused_at_load_naming_the_field(monkeypatch: pytest.MonkeyPatch, teachers: str,
                                                                  default: str | None, message: str) -> None:
    monkeypatch.setenv("EXECSYNTH_TEACHERS", teachers)
    if default:
        monkeypatch.setenv("EXECSYNTH_DEFAULT_TEACHER", default)
    with pytest.raises(SettingsError) as raised:
        get_settings()
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_an_empty_variable_means_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXECSYNTH_TEACHERS", "")
    assert get_settings().teachers == {}


def test_dotenv_file_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("EXECSYNTH_API__PORT=9123\n")
    assert get_settings().api.port == 9123


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("EXECSYNTH_DATABASE_URL", "mysql://x/y"),
        ("EXECSYNTH_BROKER_URL", "kafka://x"),
        ("EXECSYNTH_SANDBOX__TIMEOUT_S", "-1"),
        ("EXECSYNTH_SANDBOX__ISOLATION", "none"),
        ("EXECSYNTH_API__PORT", "eighty"),
        ("EXECSYNTH_TEACHERS", "not json"),
    ],
)
def test_invalid_values_name_the_variable(monkeypatch: pytest.MonkeyPatch, variable: str, value: str) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as info:
        get_settings()
    assert variable in str(info.value)


def test_the_stats_cache_lifetime_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.api.stats import _cache_of
    from app.main import create_app

    monkeypatch.setenv("EXECSYNTH_API__STATS_TTL_S", "0")
    assert _cache_of(create_app(get_settings())).ttl_s == 0.0
    monkeypatch.setenv("EXECSYNTH_API__STATS_TTL_S", "-1")
    get_settings.cache_clear()
    with pytest.raises(SettingsError) as raised:
        get_settings()
    assert "EXECSYNTH_API__STATS_TTL_S" in str(raised.value)


def test_a_worker_killed_mid_sweep_does_not_stall_redelivery() -> None:
    """kombu locks each sweep for dead workers' messages, and the lock of a worker killed
    mid-sweep lives until it expires (300 s by default: a kill -9 then held every redelivery
    for five minutes). It expires within half the visibility timeout, at most a minute."""
    from app.core.celery import broker_transport_options
    from app.core.config import Settings

    short = broker_transport_options(Settings(broker_url="redis://127.0.0.1:6379/0", worker={"visibility_timeout_s": 6}))
    assert short["unacked_mutex_expire"] == 3
    assert short["unacked_restore_interval"] == 1
    default = broker_transport_options(Settings(broker_url="redis://127.0.0.1:6379/0"))
    assert default["unacked_mutex_expire"] == 60

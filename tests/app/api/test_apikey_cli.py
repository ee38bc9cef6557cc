"""`execsynth apikey create|list|revoke` through Typer against the real test database."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from app.core.config import get_settings
from execsynth.commands.apikey import app


def _run(monkeypatch, migrated_pg, *args: str):
    monkeypatch.setenv("EXECSYNTH_DATABASE_URL", migrated_pg)
    get_settings.cache_clear()
    return CliRunner().invoke(app, list(args))


def test_create_list_revoke_and_the_key_works(monkeypatch, migrated_pg, client) -> None:
    created = _run(monkeypatch, migrated_pg, "create", "--name", "cli-user", "--rate-limit", "7")
    assert created.exit_code == 0, created.output
    key = created.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"esk_[A-Za-z0-9_-]{43}", key)
    key_id = re.search(r"created API key (\d+)", created.output).group(1)
    assert client.get("/v1/samples", headers={"X-API-Key": key}).status_code == 200

    listed = _run(monkeypatch, migrated_pg, "list")
    assert listed.exit_code == 0
    line = next(line for line in listed.stdout.splitlines() if "cli-user" in line)
    assert key[:12] in line and " 7 " in line and key not in listed.stdout

    revoked = _run(monkeypatch, migrated_pg, "revoke", key_id)
    assert revoked.exit_code == 0 and f"revoked API key {key_id}" in revoked.output
    assert client.get("/v1/samples", headers={"X-API-Key": key}).status_code == 403
    active = _run(monkeypatch, migrated_pg, "list", "--active-only")
    assert "cli-user" not in active.stdout


def test_bad_input_is_a_clear_error(monkeypatch, migrated_pg) -> None:
    missing = _run(monkeypatch, migrated_pg, "revoke", "99999999")
    assert missing.exit_code == 1 and "no API key 99999999" in missing.output
    assert _run(monkeypatch, migrated_pg, "create", "--name", "x", "--rate-limit", "0").exit_code == 2
    assert _run(monkeypatch, migrated_pg, "create", "--name", "").exit_code == 2

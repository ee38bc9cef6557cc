"""Teacher tests talk real HTTP to the fake OpenAI-compatible server."""

from tests.fakes.openai_server import fake_openai_server, fake_openai_server_factory  # noqa: F401

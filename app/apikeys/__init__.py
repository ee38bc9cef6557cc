"""API keys: created by the CLI, shown once, stored as a sha256 only."""

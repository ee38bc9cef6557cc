"""Command-line entry point of execsynth (the only layer allowed to import every other one)."""

"""The teachers a deployment offers (EXECSYNTH_TEACHERS plus the builtin one)."""

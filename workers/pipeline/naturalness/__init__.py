"""The naturalness gate: static rules and dynamic checks (probe + ablation in one sandbox
job), each rejection a named reason. Start at `gate.static_verdict` / `gate.dynamic_job`."""

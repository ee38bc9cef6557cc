"""Run statuses, in a module of their own so the forkserver can import them cheaply."""

STATUSES = ("ok", "exception", "timeout", "memory_limit", "output_limit", "trace_limit",
            "killed", "sandbox_error")

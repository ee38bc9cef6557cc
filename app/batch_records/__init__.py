"""What a batch wrote, record by record: each teacher call (prompt, raw completion, latency,
tokens, cost, error) and each program with its rejection reason and detail."""

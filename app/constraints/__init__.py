"""The constraint grid as the API serves it (the catalog itself lives in the pure pipeline)."""

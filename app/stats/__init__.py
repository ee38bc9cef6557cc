"""Aggregates over samples and programs for researchers and the dashboard."""

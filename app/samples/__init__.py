"""Samples: (program, input) pairs, accepted or rejected, with their questions."""

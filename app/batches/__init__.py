"""Batches: a researcher's request for data over a slice of the constraint grid."""

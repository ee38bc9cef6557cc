"""Reading a stored trace against its program: what each line is (from the AST) and which
line visits the trace shows, frame by frame.

Standard library only: the pipeline chooses questions from it and the rationale writer and
verifier (`training.rationale`) state and check execution steps with the same reading.
"""

"""The solver side: clingo control, exact arithmetic, decoding, answers."""

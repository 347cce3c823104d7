world open.

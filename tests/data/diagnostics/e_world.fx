world open.
world closed.

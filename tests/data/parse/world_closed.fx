// world closed is the default; written out it still round-trips
world closed.
p(a).

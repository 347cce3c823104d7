p.
p(a).
o[m -> v].
o[m -> v][n -> w].
f(a)[m -> g(b)].

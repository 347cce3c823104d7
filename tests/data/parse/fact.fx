p.
p(a).
p(a, b, c).
edge(1, 2).
p(a), q(b).
r(c) AND s(d).
o[m -> v].
o:C.
C::D.
p("s", 'q s', Human, _tool, fx_x, 0, -1, 12345678901234567890).

p(a).
p(b) :- q(a)

p(a).
q(b :- p(a).

p(a).
/* never closed
q(b).

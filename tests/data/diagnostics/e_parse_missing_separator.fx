p(a) q(b).

p(a.
q(b)).
r(c) :- s(c) t(c).
% nope

// Cyclic rules and a cyclic class hierarchy: proofs stay well founded
// (p(a) is not justified by q(a) justified by p(a)).
// explain: ?- p(a).
// explain: ?- x:c.
p(a) :- q(a).
q(a) :- p(a).
q(a) :- r(a).
r(a).
a::b.
b::a.
b::c.
x:a.

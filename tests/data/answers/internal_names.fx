// User predicates and symbols named like fxlog's internals do not interfere
// with membership, frames, queries or requests.
fx_isa_(x, c).
fx_isa(x, c).
fx_sub_(a, b).
fx_query_0.
fx_pend(r).
fx_a_m(o, v).
fx_s("Human").
?- x:c.
?- a::b.
?- o[m -> v].
?- fx_isa(x, c).
?- fx_s("Human").
?- fx_s(Human).
?- fx_query_0.
?- fx_pend(?R).

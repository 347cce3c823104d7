// The request object of an `external` carries tool#name, tool#requested,
// tool#argN (one per argument), tool#order (when given) and input("field");
// rules read them like any frame.
world closed.
h(socrates).
h(plato).
external chk(?P, 2) using _query[query -> "?- socrates:Human."; tool#order -> 1; limit -> 42]
    <- h(?P).
external ping using _ping[].
external ping2(x) using _ping[] :- \true.
asked(?P) :- ?C[tool#name -> "_query"; tool#arg1 -> ?P; tool#requested -> true].
?- chk(socrates, 2)[tool#name -> ?N].
?- chk(socrates, 2)[tool#requested -> ?R].
?- chk(socrates, 2)[tool#arg1 -> ?A; tool#arg2 -> ?B].
?- chk(socrates, 2)[tool#order -> ?O].
?- chk(socrates, 2)[input("query") -> ?Q].
?- chk(socrates, 2)[input(?K) -> ?V].
?- asked(?P).
?- ping[tool#name -> ?N].
?- ping2(x)[tool#arg1 -> ?A; tool#requested -> true].
?- chk(socrates, 2)[tool#completed -> true].
?- chk(aristotle, 2)[tool#requested -> true].

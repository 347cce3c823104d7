external checkHuman(?P) using _query[query -> "?- socrates:Human."; tool#order -> 1] <- ?P:Human.
external chk(?P, 2) using _query[query -> "q"; limit -> 42] :- h(?P).
external lookup(?O) using _sql[query -> "select total", tool#order -> 2] <- order(?O) AND NOT done(?O).

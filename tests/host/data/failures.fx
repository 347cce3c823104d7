// Every failure path of the host, each followed by a retry the rules derive.
// Tools: tests/host/adapters/failing.py (attempt 1 fails, attempt 2 succeeds).
go.

external call(raises, 1) using raises[attempt -> 1; tool#order -> 1] <- go.
external call(list, 1) using returns_list[attempt -> 1; tool#order -> 2] <- go.
external call(string, 1) using returns_string[attempt -> 1; tool#order -> 3] <- go.
external call(nested, 1) using nested_row[attempt -> 1; tool#order -> 4] <- go.
external call(limit, 1) using too_many_fields[attempt -> 1; tool#order -> 5] <- go.
external call(slow, 1) using slow[attempt -> 1; tool#order -> 6] <- go.

// A failed first attempt enables the second one.
retry(?K) <- call(?K, 1)[tool#completed -> true; tool#status -> "failed"].
external call(raises, 2) using raises[attempt -> 2; tool#order -> 11] <- retry(raises).
external call(list, 2) using returns_list[attempt -> 2; tool#order -> 12] <- retry(list).
external call(string, 2) using returns_string[attempt -> 2; tool#order -> 13] <- retry(string).
external call(nested, 2) using nested_row[attempt -> 2; tool#order -> 14] <- retry(nested).
external call(limit, 2) using too_many_fields[attempt -> 2; tool#order -> 15] <- retry(limit).
external call(slow, 2) using slow[attempt -> 2; tool#order -> 16] <- retry(slow).

recovered(?K) <- call(?K, 2)[tool#status -> "succeeded"].
workflow[status -> recovered] <- recovered(raises) AND recovered(list)
    AND recovered(string) AND recovered(nested) AND recovered(limit) AND recovered(slow).

?- call(?K, 1)[error("type") -> ?T; error("message") -> ?M].
?- recovered(?K).

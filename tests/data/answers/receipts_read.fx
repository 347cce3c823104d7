// Receipt facts (here in receipts_read.receipts.fx) are read by rules:
// tool#completed, tool#status, result("k"), row(N, "k"), tool#ignored("k"),
// error("type") / error("message").
world open.
item(a).
item(b).
item(c).
external look(?I) using _search[q -> ?I; tool#order -> 1] <- item(?I).
ok(?I) :- look(?I)[tool#status -> "succeeded"; result("hits") -> ?H], ?H > 0.
failed(?I, ?T) :- look(?I)[tool#completed -> true; tool#status -> "failed"; error("type") -> ?T].
first(?I, ?V) :- look(?I)[row(1, "name") -> ?V].
ignored(?I, ?K) :- look(?I)[tool#ignored(?K) -> true].
?- ok(a).
?- ok(b).
?- failed(b, ?T).
?- failed(a, ?T).
?- look(b)[error("message") -> ?M].
?- first(a, ?V).
?- look(a)[row(?N, "name") -> ?V].
?- ignored(a, ?K).
?- look(a)[result("hits") -> ?H; tool#name -> ?Tool].
?- ok(c).

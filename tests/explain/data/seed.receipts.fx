// fxlog receipts v1
checkHuman(socrates)[tool#started -> "2026-11-30T02:09:01.583605Z"; tool#seq -> 1; tool#name -> "_query"].
checkHuman(socrates)[tool#completed -> true; tool#status -> "succeeded"; tool#name -> "_query"; tool#seq -> 1; tool#started -> "2026-11-30T02:09:01.583605Z"; tool#finished -> "2026-11-30T02:09:01.592454Z"; tool#duration_ms -> 6.64; input("query") -> "?- socrates:Human."; result("status") -> "true"; evidence("query") -> "?- socrates:Human."; evidence("elapsed_ms") -> 6.305].
// episode end: reason=quiescence status=- actions=1

o[m -> v; n -> {a, b}; tool#status -> "ok"; result("k") -> 1; salary(2024) -> 54].
?- o[?M -> ?V; NOT n -> c; \neg z -> w].

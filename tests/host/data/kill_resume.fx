// `first` completes, `slow(1)` blocks until the test kills the host. On resume
// the interrupted call is recorded as failed and the rules retry it as `slow(2)`.
// Tools: tests/host/adapters/counting.py.
go.

external first(1) using count[name -> "first"; tool#order -> 1] <- go.
external slow(1) using block[name -> "slow"; attempt -> 1; tool#order -> 2]
    <- first(1)[tool#status -> "succeeded"].
external slow(2) using block[name -> "slow"; attempt -> 2; tool#order -> 3]
    <- slow(1)[tool#status -> "failed"; error("type") -> "interrupted"].
external last(1) using count[name -> "last"; tool#order -> 4]
    <- slow(?_N)[tool#status -> "succeeded"].
workflow[status -> done] <- last(1)[tool#status -> "succeeded"].

?- slow(1)[error("type") -> ?T].

// Order conflicts: alpha and beta are enabled together at once with the same
// tool#order (an error at the first step); review and notify only after
// check(1) succeeds, and then with the same order too (a warning).
go.
external alpha(1) using probe[host -> "a"; tool#order -> 1] <- go.
external beta(1) using probe[host -> "b"; tool#order -> 1] <- go.
external check(1) using probe[host -> "c"; tool#order -> 2] <- go.
external review(1) using probe[host -> "r"; tool#order -> 5]
    <- check(1)[tool#status -> "succeeded"].
external notify(1) using probe[host -> "n"; tool#order -> 5]
    <- check(1)[tool#status -> "succeeded"].

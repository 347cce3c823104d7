// The seed walkthrough: a rule derives a request for the built-in `_query`
// tool; the host runs it once and records a receipt; rules read the receipt.
// explain: ?- socrates[answer -> "true"].
// explain: checkHuman(socrates)
world open.
socrates:Human.

external checkHuman(?Person) using _query[query -> "?- socrates:Human."]
    <- ?Person:Human.

?Person[answer -> ?Status] <- ?Person:Human
    AND ?Call[tool#name -> "_query"; tool#arg1 -> ?Person;
              tool#completed -> true; tool#status -> "succeeded";
              result("status") -> ?Status].

?- socrates[answer -> "true"].

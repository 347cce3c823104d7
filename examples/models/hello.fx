// Ask a model for a greeting, then accept it only from a succeeded receipt.
// Runs offline: the answer comes from models.sqlite beside this file
// (see docs/models.md, "An example that runs offline").
external ask(1) using _llm[prompt -> "Say hello. Return JSON: {\"message\": \"...\"}.";
                           tool#order -> 1] <- \true.

greeting[text -> ?M] <-
    ?C[tool#name -> "_llm"; tool#status -> "succeeded"; result("message") -> ?M].

?- greeting[text -> ?M].

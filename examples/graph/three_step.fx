// A three-step episode: fetch a document, classify its text, file it under the label.
//
// Each step reads the receipt of the one before it, so the request dependency
// graph is a chain: fetch(d1) -> classify(d1) -> file(d1, "invoice") -> workflow.
// Tools: examples/graph/tools.py (fxlog run ... --adapter examples/graph/tools.py).

d1:Document.

external fetch(?D) using fetch_doc[id -> ?D; tool#order -> 1] <- ?D:Document.

external classify(?D) using classify_text[text -> ?T; tool#order -> 2]
    <- fetch(?D)[tool#status -> "succeeded"; result("text") -> ?T].

external file(?D, ?Label) using file_doc[id -> ?D; label -> ?Label; tool#order -> 3]
    <- classify(?D)[tool#status -> "succeeded"; result("label") -> ?Label].

?D[label -> ?Label] <- classify(?D)[tool#status -> "succeeded"; result("label") -> ?Label].

workflow[status -> "filed"] <- file(?, ?)[tool#status -> "succeeded"].
workflow[status -> "failed"] <- ?Call[tool#name -> "fetch_doc"; tool#status -> "failed"].

?- ?D:Document[label -> ?Label].

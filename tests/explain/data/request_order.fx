// The three-step episode of examples/graph (fetch, classify, file) with its receipts:
// a request explanation shows why the request was derived and where it ran.
// explain: classify(d1)
// explain: file(d1, "invoice")
// explain: ?- d1[label -> ?L].

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

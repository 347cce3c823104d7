// fxlog receipts v1
look(a)[tool#completed -> true; tool#status -> "succeeded"; tool#name -> "_search"; result("hits") -> 3; row(1, "name") -> "x"; row(2, "name") -> "y"; tool#ignored("meta") -> true].
look(b)[tool#completed -> true; tool#status -> "failed"; tool#name -> "_search"; error("type") -> "tool_error"; error("message") -> "boom \"quoted\""].

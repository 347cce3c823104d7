go.
external ping(1) using count[name -> "ping"; tool#order -> 1] <- go.
workflow[status -> done] <- ping(1)[tool#completed -> true].
workflow[status -> failed] <- ping(1)[tool#status -> "succeeded"].

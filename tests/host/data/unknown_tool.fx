go.
external first(1) using count[name -> "first"; tool#order -> 1] <- go.
external second(1) using cuont[name -> "second"; tool#order -> 2] <- first(1)[tool#completed -> true].

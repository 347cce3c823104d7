go.
external fetch(1) using evil[tool#order -> 1] <- go.
?- evil(x).
?- evil(y).
?- fetch(1)[result("text") -> ?T].

// none of these variables draws a warning
q(a, b).
p(?X) :- q(?X, ?_Y), q(?, ?_).
?- q(?X, ?Z).
?- q(?X, ?).

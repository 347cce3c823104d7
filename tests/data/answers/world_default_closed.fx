// Without a `world` statement the world is closed: a derived request without a
// receipt has not completed, so everything that waits for it is false.
h(a).
external chk(?X) using _t[] <- h(?X).
done(?X) :- chk(?X)[tool#completed -> true].
waiting(?X) :- chk(?X)[tool#requested -> true], NOT done(?X).
?- done(a).
?- waiting(a).

// `world open`: the outcome of a derived request without a receipt is open
// (completed or not, succeeded or failed), so answers that depend on it are
// unknown and name the request. Answers that hold whatever it returns are
// already true or false. Requests that are not derived are not pending.
world open.
h(a).
external chk(?X) using _t[] <- h(?X).
external never(?X) using _t[] <- h(?X), ?X = zzz.
done(?X) :- chk(?X)[tool#completed -> true].
ok(?X) :- chk(?X)[tool#status -> "succeeded"].
covered(?X) :- done(?X).
covered(?X) :- h(?X), NOT done(?X).
?- h(a).
?- chk(a)[tool#requested -> true].
?- done(a).
?- ok(a).
?- NOT done(a).
?- covered(a).
?- done(b).
?- never(zzz)[tool#completed -> true].
?- done(?X).

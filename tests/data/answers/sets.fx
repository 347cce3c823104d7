// Sets: `{mary, joe}:{Student, Worker}` is four facts; a set value in a head is
// one fact per element; in a body every element must hold.
{mary, joe}:{Student, Worker}.
o[m -> {a, b}].
p(x) :- o[m -> {a, b}].
q(x) :- o[m -> {a, z}].
t[tags -> {x, y}] :- p(x).
?- mary:Student.
?- joe:Worker.
?- ?X:Student, ?X:Worker.
?- {mary, joe}:Worker.
?- {mary, ann}:Worker.
?- o[m -> ?V].
?- o[m -> {b, a}].
?- p(x).
?- q(x).
?- t[tags -> ?T].

{mary, joe}:{Student, Worker}.
o[m -> {a, b, c}].
?- {mary, joe}:Worker.
?- o[m -> {a, b}].

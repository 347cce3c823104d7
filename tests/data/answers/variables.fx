// Named variables are shown; `?` and `?_` are anonymous (each occurrence is a
// fresh variable); `?_Name` is a don't-care variable: shared within the
// statement, never shown in answers.
p(a, b).
p(c, c).
?- p(?X, ?).
?- p(?_First, ?Second).
?- p(?X, ?X).
?- p(?_Same, ?_Same).
?- p(?, ?).
?- p(?_, ?_).
?- p(?Y, ?_), p(?_, ?Y).
samefirst(?X) :- p(?X, ?_Y), p(?_Y, ?_Y).
anyp :- p(?, ?).
?- samefirst(?X).
?- anyp.

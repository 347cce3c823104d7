// `true`/`false` are symbols (also `\true`/`\false`); as a formula on its own,
// true always holds and false never does.
flag(true).
flag(\false).
job1[done -> true].
h :- \true.
k :- \false.
?- flag(?F).
?- flag(\true).
?- job1[done -> \true].
?- true.
?- false.
?- h.
?- k.
?- flag(?F), NOT false.

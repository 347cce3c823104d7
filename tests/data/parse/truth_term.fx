flag(\true).
flag(\false).
flag(true).
h :- \true.
k :- \false.
?- flag(?F), NOT \false.

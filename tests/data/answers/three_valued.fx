// Three-valued answers over the answer sets: an even loop through NOT makes
// p and q unknown; s follows from either, so it is true in every answer set.
p :- NOT q.
q :- NOT p.
s :- p.
s :- q.
both :- p, q.
c(1) :- p.
c(2) :- q.
c(3).
?- p.
?- q.
?- s.
?- both.
?- NOT p.
?- c(?X).

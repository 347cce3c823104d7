// Facts: predicates with arguments, bare atoms, several facts in one statement.
p(a).
p(b, c).
raining.
q(a), q(b).
r(c) AND s(d).
?- p(a).
?- p(b).
?- p(b, c).
?- p(?X).
?- p(?X, ?Y).
?- raining.
?- sunny.
?- q(?X).
?- r(c), s(d).

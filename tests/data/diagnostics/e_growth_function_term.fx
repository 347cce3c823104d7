p(a).
p(f(?X)) :- p(?X).

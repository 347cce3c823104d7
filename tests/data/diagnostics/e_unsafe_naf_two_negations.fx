p(a).
q(?X) :- p(?X),
         NOT r(?X, ?Y),
         NOT s(?Y).

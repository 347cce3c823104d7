// Rules written with `:-` and with `<-` mean the same; recursion; several head formulas.
parent(ann, bob).
parent(bob, cy).
ancestor(?X, ?Y) :- parent(?X, ?Y).
ancestor(?X, ?Z) <- parent(?X, ?Y) AND ancestor(?Y, ?Z).
older(?X), younger(?Y) :- parent(?X, ?Y).
?- ancestor(ann, ?D).
?- ancestor(cy, ?D).
?- ancestor(?A, cy).
?- older(?P).
?- younger(?P).

// Plain facts, a rule with `:-`, a rule with `<-`, and one query.
parent(ann, bob).
parent(bob, cy).
ancestor(?X, ?Y) :- parent(?X, ?Y).
ancestor(?X, ?Z) <- parent(?X, ?Y) AND ancestor(?Y, ?Z).
?- ancestor(ann, ?D).

// Predicates of any arity, bare atoms and function terms, taken apart by matching.
raining.
owns(ann, car(red, 2019)).
owns(bob, car(blue, f(g(x)))).
pair(f(a, g(b))).
?- raining.
?- sunny.
?- owns(?Who, car(?Colour, ?Year)).
?- owns(ann, ?Thing).
?- owns(bob, car(?, f(g(?Z)))).
?- pair(f(?X, g(?Y))).
?- pair(f(a, ?)).
?- pair(f(b, ?)).
?- car(red, 2019) = car(?C, ?).

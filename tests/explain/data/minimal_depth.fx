// Two derivations of reach(a, d): a chain of three edges (found first in rule
// order) and a shortcut fact. The explanation takes the shallower one.
// explain: ?- reach(a, d).
// explain: ?- reach(a, c).
edge(a, b).
edge(b, c).
edge(c, d).
reach(?X, ?Y) :- edge(?X, ?Y).
reach(?X, ?Z) :- edge(?X, ?Y), reach(?Y, ?Z).
reach(?X, ?Y) :- shortcut(?X, ?Y).
shortcut(a, d).

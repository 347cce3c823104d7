// Why not: each rule for the goal, how far its body gets, the first failing
// literal, and recursively why that literal fails.
// explain: ?- ready(i1).
// explain: ?- ready(?X).
item(i1).
inspected(i1).
ready(?X) :- item(?X), checked(?X).
ready(?X) :- override(?X).
checked(?X) :- inspected(?X), signed(?X).
signed(?X) :- signature(?X, ?_Who).

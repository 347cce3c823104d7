// OR is split into rules, NOT of a conjunction gets an auxiliary predicate.
p(1). p(2). q(2). r(3).
s(?X) :- p(?X) OR r(?X).
t(?X) :- q(?X), NOT (p(?X), r(?X)).
u(?X) :- p(?X), NOT q(?X).
?- s(?X), NOT t(?X).

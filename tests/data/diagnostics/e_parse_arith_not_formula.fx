// 1 + 2 is no formula
q(1).
p :- q(?X), ?X + 1.

// abs, min and max are arithmetic functions: their arguments are expressions.
n(3).
?- ?X \is abs(3 - 5).
?- ?X \is max(1 + 1, 3).
?- n(?N), ?X \is min(?N * 2, 5).
?- ?X \is abs(-4).

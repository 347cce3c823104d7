// Arithmetic with \is and =: exact, any size, usual precedence.
n(1). n(2). n(3).
big(4294967296).
succ(?X, ?Y) :- n(?X), ?Y \is ?X + 1.
?- ?X \is 3 + 4 * 2.
?- ?X = (3 + 4) * 2.
?- ?X \is 7 / 2.
?- ?X \is 8 / 2.
?- ?X \is 7 mod 3.
?- ?X \is 2 - -3.
?- ?X \is -(2 + 3).
?- ?X \is abs(-4) + min(2, 3) + max(2, 3).
?- ?X \is 2147483647 + 1.
?- ?X \is -2147483648 - 1.
?- big(?B), ?X \is ?B * ?B.
?- ?X \is 0.1 + 0.2.
?- ?X \is 1.5 * 2.
?- succ(?X, ?Y).
?- succ(2, 3).
?- n(?X), 6 \is ?X * 2.
?- ?X \is 10 / 0.

// = != \= < <= =< > >= ; numbers compare by value, strings in code order,
// symbols in clingo's term order; a number, a string and a symbol never compare.
age(ann, 30).
age(bob, 25).
age(cy, 30).
?- age(?X, ?A), ?A >= 30.
?- age(?X, ?A), ?A > 25.
?- age(?X, ?A), ?A =< 25.
?- age(?X, ?A), ?A <= 25.
?- age(?X, ?A), ?A < 26.
?- age(?X, ?A), ?A != 30.
?- age(?X, ?A), ?A \= 30.
?- age(?X, 30), age(?Y, 30), ?X != ?Y.
?- "b" > "a".
?- "10" < "9".
?- abc < abd.
?- 3 < "a".
?- 2147483648 > 2147483647.
?- -4294967296 < -4294967295.
?- 0.3 < 0.31.
?- 2147483648 > 1.
?- 1 < 4294967296.

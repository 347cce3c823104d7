// Queries are answered in file order, wherever they stand; the same query may repeat.
?- late(?X).
?- b.
a.
?- a.
late(1).
?- b.
?- a.

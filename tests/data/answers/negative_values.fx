// Negative numbers are values wherever a term may stand: frame values, sets
// of values, queries and comparisons.
o[score -> -0.5].
o[delta -> {-1, 2}].
t[temp -> -3].
?- o[score -> ?S].
?- o[score -> -0.5].
?- o[delta -> ?D].
?- t[temp -> -3].
?- t[temp -> ?T], ?T < -2.

// negative numbers wherever a term may stand
n(-1).
n(f(-1)).
o[score -> -0.5].
o[delta -> {-1, 2}].
?- o[score -> -0.5].
?- t[temp -> ?T], ?T < -2.

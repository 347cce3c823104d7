// The empty frame `o[]` holds for every object something is said about
// (membership, a frame value, a boolean method, in facts or rules), and for
// nothing else.
a[m -> v].
b[m -> v; n -> w].
c[tall].
d:C.
g[m -> v] :- \true.
h[].
?- a[].
?- b[].
?- c[].
?- d[].
?- g[].
?- h[].
?- nobody[].

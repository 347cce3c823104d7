/* A block comment
   over two lines: p(hidden). */
p(a).  // a line comment: p(hidden2).
// q(hidden3).
p(b). /* inline */ p(c).
p(/* inside */ d).
s("// not a comment"). s("/* nor this */").
?- p(?X).
?- p(hidden).
?- q(?X).
?- s(?S).
/* a trailing comment */

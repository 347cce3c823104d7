/* A block comment
   over two lines. */
p(a).  // a line comment
p(/* inside */ b).
// the end

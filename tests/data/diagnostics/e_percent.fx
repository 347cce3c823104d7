p(a).  % not a comment

p(a).
q :- p({a, b}).

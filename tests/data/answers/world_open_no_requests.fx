// `world open` changes nothing when no request is pending.
world open.
p(a).
?- p(a).
?- p(b).
?- NOT p(b).

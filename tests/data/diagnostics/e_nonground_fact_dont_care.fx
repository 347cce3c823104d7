q(a).
o[m -> ?_V].

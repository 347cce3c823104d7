p(a), q(b), r(c).
p(a) AND q(b).
\neg p(a).
\neg o[m -> v].
o[m -> v], \neg o[n -> w].
{mary, joe}:{Student, Worker}.

socrates:Human.
Human::Mortal.
john:Person[age -> 42].
{mary, joe}:{Student, Worker}.
?- ?X:Human.
?- ?C::Mortal.
?- john:Person[age -> ?A].

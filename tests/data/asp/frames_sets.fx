// Membership, subclass, frames with several specs and set values.
{mary, joe}:{Student, Worker}.
Student::Person.
john[age -> 42; kids -> {bob, mary}, tall].
adult(?P) :- ?P[age -> ?A], ?A >= 18.
?- ?X:Person.

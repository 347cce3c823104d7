// `o:C` and `C::D`: subclass is transitive, not reflexive; membership is
// closed over `::` (a member of C is a member of every superclass of C).
socrates:Human.
Human::Mortal.
Mortal::Being.
rock:Thing.
?- socrates:Being.
?- socrates:Mortal.
?- socrates:?C.
?- Human::Being.
?- Human::?D.
?- Human::Human.
?- Being::Human.
?- ?X:Being.
?- rock:Being.
?- socrates:Thing.

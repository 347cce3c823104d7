kind('any text').
kind('AND').
kind('world').
kind('it\'s').
kind('').
kind('Human').
'Plato of Athens':Human.
'f x'(a) :- \true.

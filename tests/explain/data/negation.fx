// Default negation: the proof shows the NOT literal; the why-not of q(b)
// names the failing NOT and proves r(b), the atom that blocks it.
// explain: ?- q(a).
// explain: ?- q(b).
p(a).
p(b).
s(b).
r(?X) :- s(?X).
q(?X) :- p(?X), NOT r(?X).

?- ?X \is (p(a), q(a)) + 1.

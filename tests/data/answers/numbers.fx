// Integers of any size (beyond 32 bits, negative) and exact decimals;
// numbers compare by value however they are written.
n(123456789012345678901234567890).
n(-98765432109876543210).
n(4294967296).
n(-7).
n(0.93).
n(1.50).
n(-2.5e3).
n(2.0).
n(1e2).
?- n(?X).
?- n(1.5).
?- n(2).
?- n(100).
?- n(-2500).
?- n(-2500.00).
?- n(4294967296).
?- n(0).
?- 1.50 = 1.5.
?- 2 = 2.0.
?- ?X \is 0.1 + 0.2, ?X = 0.3.
?- n(?X), ?X > 4294967295.
?- n(?X), ?X < -100.

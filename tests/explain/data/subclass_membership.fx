// Membership through subclasses: x:a, a::b, b::c  =>  x:c.
// The proof goes through both closure axioms down to the three facts.
// explain: ?- x:c.
// explain: ?- a::c.
x:a.
a::b.
b::c.

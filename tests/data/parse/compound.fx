owns(ann, car(red, 2019)).
p(f(a, g(b, h(c)))).
p(tool#ignored("x")).
p(f()).
?- owns(?Who, car(?Colour, ?Year)).

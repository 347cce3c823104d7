// Paths in bodies: o.m stands for some value v with o[m -> v].
paper1[author -> ann].
ann[name -> "Ann"; affil -> mit].
mit[city -> "Cambridge"].
ann[salary(2024) -> 54].
?- paper1.author[name -> ?N].
?- paper1.author.affil[city -> ?C].
?- ?P.author.affil = mit.
?- ?X = ann.salary(2024).

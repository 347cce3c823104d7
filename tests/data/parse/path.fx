?- paper1.author[name -> ?N].
?- paper1.author.affil[city -> ?C].
?- ?P.author.affil = mit.
?- ?X = ann.salary(2024).

job1[tool#status -> "succeeded"].
tag(tool#ignored("meta")).
tag(acme#customer).
o[tool#ignored("k") -> true].
?- ?C[tool#name -> "_query"; tool#arg1 -> ?P].

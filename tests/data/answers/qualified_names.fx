// Qualified names `ns#local` are atomic symbols, optionally applied to arguments.
job1[tool#status -> "succeeded"].
tag(tool#ignored("meta")).
tag(acme#customer).
o[tool#ignored("k") -> true].
?- job1[tool#status -> ?S].
?- tag(?T).
?- tag(tool#ignored(?Key)).
?- tag(acme#customer).
?- tag(acme#other).
?- o[tool#ignored(?K) -> true].

Bird[|flies -> yes; legs *-> 2|].
Bird[|sings|].
Person[|age => integer; name => string; boss => Person|].
carl[age => integer].
?- Penguin[|legs -> ?L|].

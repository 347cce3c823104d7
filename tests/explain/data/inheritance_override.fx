// Non-monotonic inheritance of class defaults: the most specific class wins,
// and a value set on the object itself beats every class default.
// explain: ?- tweety[legs -> ?L].
// explain: ?- pingu[legs -> ?L].
// explain: ?- pingu[sound -> ?S].
// explain: ?- tweety[sound -> ?S].
animal[|legs -> 4; sound -> "generic"|].
bird::animal.
bird[|legs -> 2|].
penguin::bird.
penguin[|sound -> "squawk"|].
tweety:bird.
pingu:penguin.
pingu[legs -> 3].

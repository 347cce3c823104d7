// A rule using count: the aggregate node shows the counted result, with the
// rule's own variables (?T) instantiated inside the aggregate.
// explain: ?- big(team1).
// explain: ?- big(team2).
team(team1).
team(team2).
member(team1, ann).
member(team1, bob).
member(team1, cy).
member(team2, dee).
big(?T) :- team(?T), ?N = count{?M | member(?T, ?M)}, ?N >= 3.

// String builtins that compute a value (length, lower) and that test (contains).
// explain: ?- short(ann).
// explain: ?- loud(ann).
// explain: ?- has(ann).
// explain: ?- short(bo).
name(ann, "Ann Lee").
name(bo, "Bo Maximilian Longname").
short(?P) :- name(?P, ?N), length(?N, ?L), ?L < 10.
loud(?P) :- name(?P, ?N), lower(?N, "ann lee").
has(?P) :- name(?P, ?N), contains(?N, "Lee").

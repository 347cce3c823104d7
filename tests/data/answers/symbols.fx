// Symbols of any case, quoted symbols, and names clingo would misread
// (capitalised, `fx_...`, `_...`): all plain symbols, case-sensitive, and
// `'Human'` is the same symbol as `Human`.
kind(Human).
kind('Human').
kind(human).
kind('any text').
kind('AND').
kind(fx_s).
kind(fx_query_0).
kind(_query).
kind(X).
?- kind(?K).
?- kind(Human).
?- kind('any text').
?- kind(HUMAN).
?- kind(fx_s), kind(_query), kind(X).
?- kind(?K), ?K = 'any text'.

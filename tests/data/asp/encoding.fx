// Values clingo would misread are encoded: capitalised and quoted symbols,
// fx_ names, strings with escapes, numbers beyond 32 bits, decimals.
kind(Human).
kind('any text').
kind(fx_s).
kind(_query).
kind(not).
msg("say \"hi\"\n").
n(4294967296).
n(-7).
n(1.50).
?- kind(?K).

kind(Human).
kind(human).
kind(fx_s).
kind(_query).
kind(mod).
kind(e).
kind(x1e5).
kind(count).
p(not) :- \true.

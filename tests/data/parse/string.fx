msg("say \"hi\"\n\tthen leave").
msg("caf\u00e9").
msg("back\\slash").
msg("").
msg("\r\u0000\u0001").
msg("// not a comment /* nor this */ % nor this").
msg("a. b").

// Strings with escapes; a string is never equal to the symbol with the same text.
msg(1, "say \"hi\"").
msg(2, "back\\slash").
msg(3, "line\nbreak").
msg(4, "tab\there").
msg(5, "caf\u00e9").
msg(6, "").
word("abc").
word(abc).
?- msg(?N, ?M).
?- msg(5, "café").
?- msg(3, "line\nbreak").
?- word(?W).
?- word("abc").
?- word(abc).
?- "abc" = abc.
?- "abc" != abc.

// world open: answers that wait on a pending request are unknown; the
// explanation names the request they depend on (only that one) and what each
// outcome would give.
// explain: ?- approved(doc1).
// explain: ?- rejected(doc1).
// explain: ?- doc1:Doc.
world open.
doc1:Doc.
doc2:Doc.
external approve(?D) using review[tool#order -> 1] <- ?D:Doc.
approved(?D) <- approve(?D)[tool#status -> "succeeded"].
rejected(?D) <- approve(?D)[tool#status -> "failed"].

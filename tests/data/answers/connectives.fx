// AND (`,` `\and`), OR (`\or`), NOT (`\naf`), parentheses; NOT binds tightest,
// then AND, then OR.
p(1). p(2).
q(2). q(3).
r(3).
?- p(?X) AND q(?X).
?- p(?X), q(?X).
?- p(?X) \and q(?X).
?- p(?X) OR r(?X).
?- p(?X) \or r(?X).
?- q(?X), NOT p(?X).
?- q(?X), \naf p(?X).
?- p(?X) OR r(?X), q(?X).
?- (p(?X) OR r(?X)), q(?X).
?- q(?X), NOT (p(?X), r(?X)).
?- q(?X), NOT (p(?X) OR r(?X)).
?- NOT p(?).
?- NOT s(?).
?- NOT NOT p(1).
?- ((p(1))).

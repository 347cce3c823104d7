\neg flies(pingu).
\neg tom:Dog.
\neg tom[likes -> water].
flies(?X) :- bird(?X), NOT \neg flies(?X).
?- \neg flies(?X).
?- tom[\neg likes -> ?W].

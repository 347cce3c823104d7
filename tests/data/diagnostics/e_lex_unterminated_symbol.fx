p('abc).

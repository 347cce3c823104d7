p({a, b}) :- \true.

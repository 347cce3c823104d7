external e(a) using _t[|q -> 1|].

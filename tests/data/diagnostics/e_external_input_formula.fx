external e(a) using _t[q -> x:C].

p(a) @ q.

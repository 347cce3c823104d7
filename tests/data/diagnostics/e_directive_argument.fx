:- setsemantics{inheritance > monotonic}.

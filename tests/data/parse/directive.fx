:- setsemantics{inheritance = monotonic}.

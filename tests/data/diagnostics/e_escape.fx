p("a\qb").

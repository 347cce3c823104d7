// Five independent steps in increasing tool#order, then a workflow status.
n(1). n(2). n(3). n(4). n(5).
external step(?N) using count[name -> "step"; attempt -> ?N; tool#order -> ?N] <- n(?N).
workflow[status -> done] <- step(5)[tool#completed -> true].
?- step(?N)[tool#status -> ?S].

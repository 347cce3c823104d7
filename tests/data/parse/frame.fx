john[age -> 42; email -> "j@example.org", kids -> {bob, mary} AND city -> paris].
john[tall].
o[].
john:Person[address -> a1[city -> "Paris"; zip -> "75001"]].
ann[salary(2023) -> 50; salary(2024) -> 54].
?- john[?M -> ?V].
?- john[kids -> ?C[age -> ?Age]].

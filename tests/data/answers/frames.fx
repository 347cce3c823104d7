// Frames: specs separated by `;`, `,` or AND all mean AND; methods are
// set-valued; variable methods; nested frames; boolean methods.
john[age -> 42; email -> "j@example.org", kids -> {bob, mary} AND city -> paris].
mary[age -> 5].
john[tall].
?- john[age -> ?A].
?- john[age -> 42; email -> ?E].
?- john[age -> 42, email -> ?E].
?- john[age -> 42 AND city -> paris].
?- john[age -> 42; age -> 43].
?- john[age -> 42; city -> rome].
?- john[kids -> ?K].
?- john[kids -> ?C[age -> ?Age]].
?- john[?M -> paris].
?- john[tall].
?- john[short].
?- ?Who[tall].

// A request family that grows without bound: each step asks for the next.
go.
external step(1) using probe[host -> "s"; tool#order -> 1] <- go.
external step(?M) using probe[host -> "s"; tool#order -> ?M]
    <- step(?N)[tool#completed -> true] AND ?M \is ?N + 1.

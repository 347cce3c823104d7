external ping using _ping[].
external ping(1) using _ping[x -> 1; y -> "two"].

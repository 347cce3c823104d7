// A seeded typo: the rules read result("stauts"), the tool returns `status`.
host(web1).
external probe(?H) using probe[host -> ?H; retries -> 2; tool#order -> 1] <- host(?H).
up(?H) <- probe(?H)[tool#status -> "succeeded"; result("stauts") -> "up"].
workflow[status -> "up"] <- up(?).
workflow[status -> "never"] <- probe(?)[tool#status -> "exploded"].

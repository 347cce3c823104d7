checkHuman(socrates)[tool#completed -> true; tool#status -> "succeeded"; tool#name -> "_query"; result("status") -> "true"].

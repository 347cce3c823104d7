go.
external alpha(1) using count[name -> "alpha"; tool#order -> 5] <- go.
external beta(1) using count[name -> "beta"; tool#order -> 5] <- go.

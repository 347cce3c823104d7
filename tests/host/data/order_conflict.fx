go.
external alpha(1) using count[name -> "alpha"] <- go.
external beta(1) using count[name -> "beta"] <- go.

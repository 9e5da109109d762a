"""GoToScorer (Gotou et al. 2020): chunk-level TP/FP/FN/TN against one reference, each chunk
weighted by how many of the evaluated systems failed to correct it."""

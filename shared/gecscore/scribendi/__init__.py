"""Scribendi score (Islam & Magnani 2021): reference-free, from a causal LM's perplexity and
two string-similarity ratios."""

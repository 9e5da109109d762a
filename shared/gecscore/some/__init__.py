"""SOME (Yoshimura et al. 2020): three BERT regressors (grammaticality, fluency, meaning
preservation) combined by weights; reference-free."""

"""IMPARA (Maeda et al. 2022): a BERT quality estimator gated by source-hypothesis similarity;
reference-free."""

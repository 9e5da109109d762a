"""GLEU (Napoles et al. 2015; the tuning-free update of 2016): n-gram precision against the
references that penalises n-grams kept from the source which the reference changed."""

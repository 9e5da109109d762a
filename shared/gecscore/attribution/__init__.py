"""Edit attribution: how much each edit of a hypothesis contributes to a sentence-level score
(add-one, remove-one, exact and sampled Shapley values), for any value function and, through
:mod:`gecscore.attribution.metric_value`, for any gecscore metric at sentence level."""
from gecscore.attribution.methods import (METHODS, Attribution, add_one, exact_shapley, remove_one,
                                          sampled_shapley)
from gecscore.attribution.value import CachedValue, ValueFunction

__all__ = ["METHODS", "Attribution", "CachedValue", "ValueFunction", "add_one", "exact_shapley", "remove_one",
           "sampled_shapley"]

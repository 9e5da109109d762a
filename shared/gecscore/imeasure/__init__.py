"""The I-measure: the exact 3-way alignment, error groups of the gold and the WAS scorer."""

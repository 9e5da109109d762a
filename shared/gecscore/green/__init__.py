"""GREEN (Koyama et al. 2024): n-gram F-beta over the source/hypothesis/reference n-gram
classes (true/over/under keeps, insertions and deletions)."""

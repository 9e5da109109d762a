"""English: ERRANT (3.0.2) over spaCy parses, exactly as ``errant_parallel`` extracts edits.

One small module per step: :mod:`.spacy_model` (finding the English spaCy model, offline),
:mod:`.alignment` (ERRANT's alignment, re-implemented exactly and compiled), :mod:`.extractor`
(parsing, aligning, and ERRANT's own merger and classifier, with parse and edit caches and the
persistent cache), :mod:`.gold` (gold and hypothesis edits from plain text) and :mod:`.profile`
(the ``en`` language profile). A metric reaches English through
:func:`gecscore.lang.profiles.profile_for`, never by this package's name. Importing this package
imports neither spaCy nor ERRANT.
"""

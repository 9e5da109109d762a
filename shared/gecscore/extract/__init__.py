"""Gold without a language model: plain-text references as whole-sentence edits, for the
metrics that read text only (:mod:`gecscore.extract.text_gold`). Edit extraction by language
(ERRANT for English, ChERRANT for Chinese, ...) is a language profile: :mod:`gecscore.lang`."""

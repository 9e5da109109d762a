"""spaCy's attribute ruler, its matches found by comparing token columns over a batch of docs.

en_core_web_sm's ``attribute_ruler`` (179 rules: the tag map's POS and morphology, and the
exceptions by word, tag and dependency) runs spaCy's general ``Matcher``, which tries every
rule's pattern at every token: on CoNLL-2014's sentences it was a quarter of ERRANT's parse
(7.2 s of 28 s for 7,471 sentences), as much as the parser. Its patterns are all of a fixed
length with plain tests on token attributes, so the same matches come from comparing columns of
``Doc.to_array`` for a whole batch of documents at once (0.3 s).

Exactness: :meth:`CompiledAttributeRules.matches` returns, for each doc, the list
``AttributeRuler.match`` returns: every ``(rule, key, start, end)`` where one of the rule's
patterns matches ``doc[start:end]``, once (the Matcher removes repeats), sorted, so that later
rules take precedence; spaCy's own ``AttributeRuler.set_annotations`` then applies them. A
token test compares the value the Matcher compares (``get_token_attr``, which ``to_array``
reads): a string by its hash, a boolean as 0/1, ``IN``/``NOT_IN`` by membership of the hashes,
``REGEX`` by ``re.search`` on the attribute's string. A ruler with anything else (an operator
``OP``, an extension attribute ``_``, another predicate, an attribute outside
:data:`ATTRIBUTES`, a callback or a greedy filter on its matcher) is not compiled
(:func:`compile_rules` returns None) and runs as spaCy runs it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from gecscore.lang.en.batches import in_batches
# The attributes whose Matcher value is Doc.to_array's: the token's or its lexeme's stored id.
ATTRIBUTES = ("ORTH", "LOWER", "NORM", "TAG", "POS", "DEP", "LEMMA",
              "IS_SPACE", "IS_PUNCT", "IS_ALPHA", "IS_DIGIT")
PREDICATES = ("IN", "NOT_IN", "REGEX")

Match = tuple[int, int, int, int]   # (rule, matcher key, start, end), as AttributeRuler.match


@dataclass(frozen=True)
class TokenTest:
    """One test on one token attribute (``attr``: spaCy's attribute id): ``kind`` "==" (one
    value), "IN" / "NOT_IN" (a set of values), "REGEX" (``pattern`` searched in the string)."""

    attr: int
    kind: str
    values: tuple[int, ...] = ()
    pattern: str = ""


@dataclass(frozen=True)
class Pattern:
    """One pattern of rule ``rule`` (matcher key ``key``): the tests of each of its tokens."""

    rule: int
    key: int
    tokens: tuple[tuple[TokenTest, ...], ...]


def compile_rules(ruler) -> "CompiledAttributeRules | None":
    """The ruler's patterns as column tests, or None when one uses a feature outside the subset."""
    from spacy.attrs import IDS

    matcher = ruler.matcher
    patterns = []
    for rule in range(len(ruler.attrs)):
        key = ruler.vocab.strings[str(rule)]
        found = matcher.get(key)
        if found is None or found[0] is not None or matcher._filter.get(key) is not None:
            return None
        for pattern in found[1]:
            tokens = [_token_tests(spec, ruler.vocab, IDS) for spec in pattern]
            if not tokens or any(tests is None for tests in tokens):
                return None
            patterns.append(Pattern(rule, key, tuple(tokens)))
    columns = tuple(sorted({test.attr for p in patterns for tests in p.tokens for test in tests}))
    fields = {IDS[name] for name in _FIELDS}
    plain = all(set(attrs) <= fields for attrs in ruler.attrs)
    return CompiledAttributeRules(ruler, tuple(patterns), columns, plain)


def _token_tests(spec: dict, vocab, ids: dict) -> tuple[TokenTest, ...] | None:
    from spacy.strings import get_string_id

    tests = []
    for name, value in spec.items():
        if not isinstance(name, str):
            return None
        name = "ORTH" if name.upper() == "TEXT" else name.upper()
        if name not in ATTRIBUTES:
            return None
        attr = ids[name]
        if isinstance(value, bool):
            tests.append(TokenTest(attr, "==", (int(value),)))
        elif isinstance(value, str):
            tests.append(TokenTest(attr, "==", (vocab.strings.add(value),)))
        elif isinstance(value, dict) and value and set(value) <= set(PREDICATES):
            for predicate, argument in value.items():
                if predicate == "REGEX":
                    if not isinstance(argument, str):
                        return None
                    tests.append(TokenTest(attr, "REGEX", pattern=argument))
                elif isinstance(argument, (list, tuple)) and all(isinstance(v, (str, int)) for v in argument):
                    tests.append(TokenTest(attr, predicate, tuple(get_string_id(v) for v in argument)))
                else:
                    return None
        else:
            return None
    return tuple(tests)


@dataclass(frozen=True)
class CompiledAttributeRules:
    """An :class:`~spacy.pipeline.AttributeRuler`'s patterns (``ruler``) as column tests."""

    ruler: Any
    patterns: tuple[Pattern, ...]
    columns: tuple[int, ...]   # the attribute ids read, in Doc.to_array's column order
    # whether every rule writes only _FIELDS (its matches can then be written token by token)
    plain_fields: bool = False
    # per REGEX pattern, whether it is found in each string id met so far (strings do not change)
    searched: dict[str, dict[int, bool]] = field(default_factory=dict, compare=False, repr=False)

    def matches(self, docs: Sequence) -> list[list[Match]]:
        """For each doc, ``AttributeRuler.match(doc)``: found over the docs' columns stacked."""
        lengths = np.array([len(doc) for doc in docs], dtype=np.int64)
        if not self.patterns or not lengths.sum():
            return [[] for _ in docs]
        column = {}
        if self.columns:   # a pattern of empty token specs reads none
            table = np.concatenate([doc.to_array(list(self.columns)).reshape(len(doc), len(self.columns))
                                    for doc in docs if len(doc)])
            column = {attr: table[:, j] for j, attr in enumerate(self.columns)}
        doc_of = np.repeat(np.arange(len(docs)), lengths)
        passed: dict[TokenTest, np.ndarray] = {}
        rules, starts, sizes = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
        for pattern in self.patterns:
            n = len(pattern.tokens)
            if n > len(doc_of):
                continue
            ok = doc_of[: len(doc_of) - n + 1] == doc_of[n - 1:]   # the span stays in one doc
            for k, tests in enumerate(pattern.tokens):
                for test in tests:
                    if test not in passed:
                        passed[test] = self._passes(test, column[test.attr])
                    ok &= passed[test][k: len(doc_of) - n + 1 + k]
            found = np.flatnonzero(ok)
            rules.append(np.full(len(found), pattern.rule, dtype=np.int64))
            starts.append(found)
            sizes.append(np.full(len(found), n, dtype=np.int64))
        return self._per_doc(np.concatenate(rules), np.concatenate(starts), np.concatenate(sizes), lengths, doc_of)

    def _passes(self, test: TokenTest, values: np.ndarray) -> np.ndarray:
        if test.kind == "==":
            return values == np.uint64(test.values[0])
        if test.kind in ("IN", "NOT_IN"):
            inside = np.isin(values, np.array(test.values, dtype=np.uint64))
            return inside if test.kind == "IN" else ~inside
        distinct, where = np.unique(values, return_inverse=True)
        found = self.searched.setdefault(test.pattern, {})
        regex = re.compile(test.pattern)
        strings = self.ruler.vocab.strings
        answers = []
        for value in distinct.tolist():
            answer = found.get(value)
            if answer is None:
                answer = found[value] = bool(regex.search(strings[value]))
            answers.append(answer)
        return np.array(answers, dtype=bool)[where.reshape(-1)]

    def _per_doc(self, rules: np.ndarray, starts: np.ndarray, sizes: np.ndarray, lengths: np.ndarray,
                 doc_of: np.ndarray) -> list[list[Match]]:
        """The matches (starts in the stacked columns, ``doc_of`` their docs) as each doc's
        sorted list, repeats removed."""
        order = np.lexsort((sizes, starts, rules))
        rules, starts, sizes = rules[order], starts[order], sizes[order]
        keep = np.ones(len(rules), dtype=bool)
        keep[1:] = (rules[1:] != rules[:-1]) | (starts[1:] != starts[:-1]) | (sizes[1:] != sizes[:-1])
        rules, starts, sizes = rules[keep], starts[keep], sizes[keep]
        docs = doc_of[starts]
        local = starts - (np.cumsum(lengths) - lengths)[docs]
        keys = {pattern.rule: pattern.key for pattern in self.patterns}
        out: list[list[Match]] = [[] for _ in lengths]
        for d, rule, start, size in zip(docs.tolist(), rules.tolist(), local.tolist(), sizes.tolist()):
            out[d].append((rule, keys[rule], start, start + size))
        return out

    def pipe(self, docs: Iterable, batch_size: int) -> Iterator:
        """The ruler applied to a stream of docs, a batch at a time (the matches written token
        by token when the rules write only :data:`_FIELDS`, else by spaCy's ``set_annotations``)."""
        yield from in_batches(docs, batch_size, self._annotate)

    def _annotate(self, batch: list) -> list:
        from spacy.tokens._retokenize import set_token_attrs

        for doc, found in zip(batch, self.matches(batch)):
            if not (self.plain_fields and _write(doc, found, self.ruler, set_token_attrs)):
                self.ruler.set_annotations(doc, found)
        return batch


# Token fields that spaCy's set_token_attrs writes as they are, on the token alone (the lexeme
# keeps none of them): a later write of one only replaces an earlier one.
_FIELDS = ("LEMMA", "POS", "TAG", "DEP", "MORPH")


def _write(doc, found: Sequence[Match], ruler, set_token_attrs) -> bool:
    """``ruler.set_annotations(doc, found)`` written token by token: each token's fields take
    the last value the sorted matches write to them (what writing them match by match leaves,
    the fields being independent), without a Span per match. False, writing nothing, when a
    rule's token index falls outside its match (spaCy's own call then raises its error)."""
    attrs, indices = ruler.attrs, ruler.indices
    final: dict[int, dict] = {}
    for rule, _key, start, end in found:
        index = indices[rule]
        at = start + index if index >= 0 else end + index
        if not start <= at < end:
            return False
        final.setdefault(at, {}).update(attrs[rule])
    for at, values in final.items():
        set_token_attrs(doc[at], values)
    return True

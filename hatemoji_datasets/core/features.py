"""Feature types, vectorised column builders, and every form a feature is written in.

The thin adapters here absorb ``datasets`` API churn (``Sequence`` became
``List`` in datasets 4) so dataset modules never touch it directly, and the
converters give each reader of a feature its form:

- :func:`canonical_features`: the same under every ``datasets`` release (fingerprints);
- :func:`portable_features`: ``Features.to_dict()`` as datasets 3.x writes it (exports);
- :func:`card_features`: the dataset card's ``dataset_info`` form (cards);
- :func:`describe_feature` / :func:`describe_feature_dict`: a few words for people.

``datasets`` and ``pyarrow`` are imported inside the functions that need them, so
the converters that work on serialised features (``info``) stay light.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa

#: One label vocabulary for every dataset of the package.
LABEL_NAMES: tuple[str, ...] = ("non-hateful", "hateful")


# -- feature types -----------------------------------------------------------------------


def class_label(names: Sequence[str]) -> datasets.ClassLabel:
    import datasets

    return datasets.ClassLabel(names=list(names))


def label() -> datasets.ClassLabel:
    """The shared binary label: 0 ``non-hateful``, 1 ``hateful``."""
    return class_label(LABEL_NAMES)


def list_of(feature: Any) -> Any:
    """A variable-length list feature under whichever name this ``datasets`` uses."""
    import datasets

    list_type = getattr(datasets, "List", None) or datasets.Sequence
    return list_type(feature)


def emoji_feature() -> Any:
    """The derived ``emoji`` feature: a list of emoji strings."""
    import datasets

    return list_of(datasets.Value("string"))


def element_of(feature: Any) -> Any | None:
    """The element feature of a list feature (``Sequence``, ``List``, ``[x]``), else None."""
    import datasets

    if isinstance(feature, list):
        return feature[0]
    if isinstance(feature, datasets.ClassLabel | datasets.Value):
        return None
    return getattr(feature, "feature", None)


# -- column builders ---------------------------------------------------------------------


def class_ids(values: pa.Array | pa.ChunkedArray, upstream_names: Sequence[str]) -> pa.Array:
    """Each value's position in ``upstream_names``: ClassLabel ids in one vectorised look-up.

    ``upstream_names`` lists the values as upstream spells them, in the order of
    the ClassLabel's names. The raw file was validated, so every value is known.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    ids = pc.index_in(values, value_set=pa.array(list(upstream_names), type=values.type))
    if ids.null_count:
        unknown = pc.filter(values, pc.is_null(ids))[0].as_py()
        raise ValueError(f"{unknown!r} is not one of {list(upstream_names)}")
    return ids.cast(pa.int64())


def list_literal_ids(
    literals: pa.Array | pa.ChunkedArray, upstream_names: Sequence[str]
) -> pa.Array:
    """Validated list literals (``['mus', 'asi.south']``) as lists of ClassLabel ids.

    The schema proved every literal follows the grammar: brackets, items separated
    by ``", "``, each in single quotes; so the brackets and quotes are cut, not parsed.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    literals = literals.combine_chunks() if isinstance(literals, pa.ChunkedArray) else literals
    quoted = pc.split_pattern(pc.utf8_slice_codeunits(literals, 1, -1), ", ")
    ids = class_ids(pc.utf8_slice_codeunits(quoted.flatten(), 1, -1), upstream_names)
    return pa.ListArray.from_arrays(quoted.offsets, ids)


def null_where(values: pa.Array | pa.ChunkedArray, sentinel: str) -> pa.Array:
    """``values`` with ``sentinel`` (upstream's way of writing nothing, such as ``-``) as null."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return pc.if_else(pc.equal(values, sentinel), pa.scalar(None, values.type), values)


def optional_ints(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """Validated optional integers (``12``, ``12.0`` or empty) as nullable int32."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    whole = pc.replace_substring_regex(values.cast(pa.string()), r"\.0$", "")
    return null_where(whole, "").cast(pa.int32())


def emoji_lists(texts: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The emoji in each text, in order, as the ``emoji`` package segments them."""
    import pyarrow as pa

    from hatemoji_datasets.core.emoji_search import squeeze_to_emoji

    values = texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts
    # The (slow, per-character) tokenizer only needs a text's emoji characters: runs of
    # anything else become one space. No emoji sequence holds a space, so each run
    # between spaces segments on its own, and runs repeat far more than whole texts
    # do (a split's, and the splits of one dataset): each is segmented once.
    lists: list[list[str]] = []
    for text in squeeze_to_emoji(values).to_pylist():
        found: list[str] = []
        for run in (text or "").split(" "):
            if run:
                found += _emoji_of_run(run)
        lists.append(found)
    return pa.array(lists, type=pa.list_(pa.string()))


@lru_cache(maxsize=1 << 16)
def _emoji_of_run(run: str) -> tuple[str, ...]:
    import emoji

    return tuple(match["emoji"] for match in emoji.emoji_list(run))


# -- canonical: the same under every datasets release (fingerprints) ----------------------


@dataclass(frozen=True)
class _SequenceOf:
    feature: Any
    length: int


def canonical_features(features: Any) -> Any:
    """``features`` in a form that is the same under every ``datasets`` release.

    ``Value`` -> ``{"value": dtype}``, ``ClassLabel`` -> ``{"class_label": names}``,
    ``Sequence``/``List``/``LargeList``/``[feature]`` -> ``{"list": feature, "length": n}``
    (``large`` marked), a dict -> ``{"struct": {name: feature}}`` in column order.
    """
    import datasets

    kind = type(features).__name__
    if isinstance(features, datasets.Value):
        return {"value": features.dtype}
    if isinstance(features, datasets.ClassLabel):
        return {"class_label": list(features.names)}
    if isinstance(features, list):  # the [feature] shorthand
        return {"list": canonical_features(features[0]), "length": -1}
    if kind in ("Sequence", "List", "LargeList"):
        inner = features.feature
        if kind == "Sequence" and isinstance(inner, dict):
            # datasets < 4 stores Sequence({...}) as a struct of lists.
            inner = {key: _SequenceOf(value, features.length) for key, value in inner.items()}
            return canonical_features(inner)
        shape = {"list": canonical_features(inner), "length": getattr(features, "length", -1)}
        if kind == "LargeList":
            shape["large"] = True
        return shape
    if isinstance(features, _SequenceOf):
        return {"list": canonical_features(features.feature), "length": features.length}
    if isinstance(features, Mapping):
        return {"struct": {key: canonical_features(value) for key, value in features.items()}}
    # Anything else (Translation, Array2D, Audio...): its own serialisation, minus the
    # class name that differs between releases for the same thing.
    described = dict(features.__dict__) if hasattr(features, "__dict__") else str(features)
    if isinstance(described, dict):
        described = {k: v for k, v in described.items() if not k.startswith("_")}
        described["kind"] = kind
    return {"other": json.loads(json.dumps(described, default=str, sort_keys=True))}


# -- portable: Features.to_dict() as datasets 3.x writes it (exports) ----------------------


def portable_features(features: Any) -> Any:
    """``Features.to_dict()`` as datasets 3.x writes it: lists as ``Sequence``.

    datasets 3.6 and 5.x both read it back (``Features.from_dict``) to the
    features they build themselves; datasets >= 4's own ``List`` form is
    unknown to 3.x ("Feature type 'List' not found").
    """
    import datasets

    if isinstance(features, dict):  # Features, or a struct
        return {name: portable_features(feature) for name, feature in features.items()}
    if isinstance(features, datasets.ClassLabel):
        return {"names": list(features.names), "_type": "ClassLabel"}
    if isinstance(features, datasets.Value):
        return {"dtype": features.dtype, "_type": "Value"}
    inner = element_of(features)
    if inner is not None and (isinstance(features, list) or type(features).__name__ != "LargeList"):
        if getattr(features, "length", -1) not in (-1, None):
            raise TypeError(f"no portable form for fixed-length {features!r}")
        return {"feature": portable_features(inner), "_type": "Sequence"}
    raise TypeError(f"no portable form for feature {features!r}")


# -- the card's dataset_info form (cards) ---------------------------------------------------


def card_features(features: datasets.Features) -> list[dict[str, Any]]:
    """``features`` as a card's ``dataset_info.features``, in the form datasets 2.x-5.x read.

    ClassLabel names as a mapping ``'0': name``; lists as ``sequence:`` (datasets
    >= 4 writes ``list:``, which 3.x cannot read; 5.x still reads ``sequence:``).
    """
    return [{"name": name, **_card_feature(feature)} for name, feature in features.items()]


def _card_feature(feature: Any) -> dict[str, Any]:
    import datasets

    if isinstance(feature, datasets.ClassLabel):
        names = {str(index): name for index, name in enumerate(feature.names)}
        return {"dtype": {"class_label": {"names": names}}}
    if isinstance(feature, datasets.Value):
        return {"dtype": feature.dtype}
    inner = element_of(feature)
    if inner is not None and getattr(feature, "length", -1) in (-1, None):
        # ``sequence: string`` for a list of Values, ``sequence: {class_label: ...}``
        # for a list of ClassLabels: the form datasets 2.x/3.x write and 4.x/5.x read.
        return {"sequence": _card_feature(inner)["dtype"]}
    raise TypeError(f"no card form for feature {feature!r}")


# -- for people -----------------------------------------------------------------------------


def describe_feature(feature: Any, *, code: bool = False) -> str:
    """A feature in a few words: ``ClassLabel (0 a, 1 b)``, ``int32``, ``list of string``.

    With ``code``, ClassLabel names are set in backticks (markdown).
    """
    import datasets

    if isinstance(feature, datasets.ClassLabel):
        quote = "`" if code else ""
        names = ", ".join(f"{i} {quote}{name}{quote}" for i, name in enumerate(feature.names))
        return f"ClassLabel ({names})"
    if isinstance(feature, datasets.Value):
        return feature.dtype
    inner = element_of(feature)
    if inner is not None:
        return f"list of {describe_feature(inner, code=code)}"
    return type(feature).__name__


def describe_feature_dict(feature: Mapping[str, Any]) -> str:
    """:func:`describe_feature` of a feature as ``Features.to_dict`` serialises it.

    Needs no ``datasets``: ``info`` prints a stored summary with it.
    """
    kind = feature.get("_type")
    if kind == "ClassLabel":
        names = ", ".join(f"{i} {name}" for i, name in enumerate(feature["names"]))
        return f"ClassLabel ({names})"
    if kind == "Value":
        return str(feature["dtype"])
    if "feature" in feature:
        return f"list of {describe_feature_dict(feature['feature'])}"
    return str(feature)

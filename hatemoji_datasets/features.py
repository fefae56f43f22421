"""Feature types and vectorised column builders shared by every dataset's transform.

The thin adapters here absorb ``datasets`` API churn (``Sequence`` became
``List`` in datasets 4) so dataset modules never touch it directly.
"""

from __future__ import annotations

from collections.abc import Sequence

import datasets
import pyarrow as pa
import pyarrow.compute as pc

#: One label vocabulary for every dataset of the package.
LABEL_NAMES: tuple[str, ...] = ("non-hateful", "hateful")


def class_label(names: Sequence[str]) -> datasets.ClassLabel:
    return datasets.ClassLabel(names=list(names))


def label() -> datasets.ClassLabel:
    """The shared binary label: 0 ``non-hateful``, 1 ``hateful``."""
    return class_label(LABEL_NAMES)


def list_of(feature: datasets.features.features.FeatureType) -> object:
    """A variable-length list feature under whichever name this ``datasets`` uses."""
    list_type = getattr(datasets, "List", None) or datasets.Sequence
    return list_type(feature)


def emoji_feature() -> object:
    """The derived ``emoji`` feature: a list of emoji strings."""
    return list_of(datasets.Value("string"))


def class_ids(values: pa.Array | pa.ChunkedArray, upstream_names: Sequence[str]) -> pa.Array:
    """Each value's position in ``upstream_names``: ClassLabel ids in one vectorised look-up.

    ``upstream_names`` lists the values as upstream spells them, in the order of
    the ClassLabel's names. The raw file was validated, so every value is known.
    """
    ids = pc.index_in(values, value_set=pa.array(list(upstream_names), type=values.type))
    if ids.null_count:
        unknown = pc.filter(values, pc.is_null(ids))[0].as_py()
        raise ValueError(f"{unknown!r} is not one of {list(upstream_names)}")
    return ids.cast(pa.int64())


def emoji_lists(texts: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The emoji in each text, in order, as the ``emoji`` package segments them."""
    import emoji

    from hatemoji_datasets.emoji_search import contains_emoji, squeeze_to_emoji

    values = texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts
    # Only texts with an emoji need the (slow, per-character) tokenizer, and it
    # only needs their emoji characters: runs of anything else become one space.
    found = contains_emoji(values)
    squeezed = squeeze_to_emoji(values)
    lists: list[list[str]] = [[] for _ in range(len(values))]
    for position in found.nonzero()[0]:
        text = squeezed[int(position)].as_py()
        lists[position] = [match["emoji"] for match in emoji.emoji_list(text)]
    return pa.array(lists, type=pa.list_(pa.string()))

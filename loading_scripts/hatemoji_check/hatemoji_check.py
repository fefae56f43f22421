"""Loading script of ``hatemoji_check`` for ``datasets`` < 4 (``trust_remote_code=True``).

A thin module over the ``hatemoji-datasets`` package (``pip install hatemoji-datasets``),
which holds the pinned sources, the schema checks and the build: this script
builds exactly what ``hatemoji_datasets.load_dataset("hatemoji_check")`` builds, and a
fresh build is checked against the package's recorded fingerprints. Set
``HATEMOJI_DATASETS_MIRROR`` to read the upstream files from a local mirror.
"""

from hatemoji_datasets.building.builder import builder_class


class HatemojiCheck(
    builder_class(
        "hatemoji_check",
    ),
):
    """The dataset at the package's current version (see ``hatemoji-datasets list``)."""

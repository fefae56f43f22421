"""HatemojiCheck: 3,930 functional test cases of emoji-based hate."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import datasets
import pandas as pd

from hatemoji_datasets import features
from hatemoji_datasets.builder import HatemojiBuilder
from hatemoji_datasets.datasets.hatemoji_check.schema import (
    FUNCTIONALITIES,
    NO_TARGET,
    PERTURBATIONS,
    TARGETS,
    UPSTREAM_NO_TARGET,
    HatemojiCheckRaw,
)
from hatemoji_datasets.validation import CSV, UpstreamFormat


class HatemojiCheck(HatemojiBuilder):
    NAME = "hatemoji_check"
    VERSION = datasets.Version("1.0.0")
    ID_FEATURE = "case_id"
    RELEASE_NOTES = {
        "1.0.0": "First release: upstream commit a626f63, one test split of 3,930 cases.",
    }

    @classmethod
    def upstream_formats(cls) -> dict[str, UpstreamFormat]:
        return {"default": UpstreamFormat(HatemojiCheckRaw, CSV, ("test",), "case_id", "text")}

    def _features(self) -> datasets.Features:
        return datasets.Features(
            {
                "case_id": datasets.Value("int32"),
                "template_id": datasets.Value("string"),
                "test_group_id": datasets.Value("int32"),
                "text": datasets.Value("string"),
                "target": features.class_label(TARGETS),
                "functionality": features.class_label(FUNCTIONALITIES),
                "perturbation": features.class_label(PERTURBATIONS.values()),
                "label": features.label(),
                "unrealistic_flags": datasets.Value("int8"),
                "emoji": features.emoji_feature(),
            }
        )

    def _split_generators(self, dl_manager: datasets.DownloadManager):
        paths = self.fetch_sources(dl_manager)
        return self.split_generators({"test": self.read_validated(HatemojiCheckRaw, paths["test"])})

    def _generate_examples(self, frame: pd.DataFrame) -> Iterator[tuple[int, dict[str, Any]]]:
        for row in frame.itertuples(index=False):
            target = NO_TARGET if row.target == UPSTREAM_NO_TARGET else row.target
            yield (
                int(row.case_id),
                {
                    "case_id": int(row.case_id),
                    "template_id": row.templ_id,
                    "test_group_id": int(row.test_group_id),
                    "text": row.text,
                    "target": target,
                    "functionality": row.functionality,
                    "perturbation": PERTURBATIONS[row.set],
                    "label": int(row.label_gold),
                    "unrealistic_flags": int(row.unrealistic_flags),
                    "emoji": features.emoji_in(row.text),
                },
            )

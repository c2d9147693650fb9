from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobsSubmitEmbeddingRefreshBody")


@_attrs_define
class JobsSubmitEmbeddingRefreshBody:
    """
    Attributes:
        batch (int | Unset): Nodes per batch (1-256).
        max_batches (int | Unset): Batches in this job (1-8); a follow-up job does the rest.
    """

    batch: int | Unset = UNSET
    max_batches: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        batch = self.batch

        max_batches = self.max_batches

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if batch is not UNSET:
            field_dict["batch"] = batch
        if max_batches is not UNSET:
            field_dict["max_batches"] = max_batches

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        batch = d.pop("batch", UNSET)

        max_batches = d.pop("max_batches", UNSET)

        jobs_submit_embedding_refresh_body = cls(
            batch=batch,
            max_batches=max_batches,
        )

        return jobs_submit_embedding_refresh_body

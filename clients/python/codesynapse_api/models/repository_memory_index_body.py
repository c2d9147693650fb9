from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="RepositoryMemoryIndexBody")


@_attrs_define
class RepositoryMemoryIndexBody:
    """
    Attributes:
        batch (int | Unset):
    """

    batch: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        batch = self.batch

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if batch is not UNSET:
            field_dict["batch"] = batch

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        batch = d.pop("batch", UNSET)

        repository_memory_index_body = cls(
            batch=batch,
        )

        return repository_memory_index_body

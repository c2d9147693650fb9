from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="RepositoryMemoryIndexResponse200")


@_attrs_define
class RepositoryMemoryIndexResponse200:
    """
    Attributes:
        indexed (int):
        remaining (bool):
    """

    indexed: int
    remaining: bool

    def to_dict(self) -> dict[str, Any]:
        indexed = self.indexed

        remaining = self.remaining

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "indexed": indexed,
                "remaining": remaining,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        indexed = d.pop("indexed")

        remaining = d.pop("remaining")

        repository_memory_index_response_200 = cls(
            indexed=indexed,
            remaining=remaining,
        )

        return repository_memory_index_response_200

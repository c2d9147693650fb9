from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="MemoryRecallRepositoryBody")


@_attrs_define
class MemoryRecallRepositoryBody:
    """
    Attributes:
        query (str): What to look for, in plain words.
        limit (int | Unset): At most this many results (1-50, default 10).
    """

    query: str
    limit: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "query": query,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        query = d.pop("query")

        limit = d.pop("limit", UNSET)

        memory_recall_repository_body = cls(
            query=query,
            limit=limit,
        )

        return memory_recall_repository_body

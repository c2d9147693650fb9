from __future__ import annotations

import datetime
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
        as_of (datetime.datetime | Unset): Answer what this thread (or, for repository memory, the repository) believed
            at this time (platform clock), including facts since superseded or retracted.
    """

    query: str
    limit: int | Unset = UNSET
    as_of: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        limit = self.limit

        as_of: str | Unset = UNSET
        if not isinstance(self.as_of, Unset):
            as_of = self.as_of.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "query": query,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit
        if as_of is not UNSET:
            field_dict["as_of"] = as_of

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        query = d.pop("query")

        limit = d.pop("limit", UNSET)

        _as_of = d.pop("as_of", UNSET)
        as_of: datetime.datetime | Unset
        if isinstance(_as_of, Unset):
            as_of = UNSET
        else:
            as_of = datetime.datetime.fromisoformat(_as_of)

        memory_recall_repository_body = cls(
            query=query,
            limit=limit,
            as_of=as_of,
        )

        return memory_recall_repository_body

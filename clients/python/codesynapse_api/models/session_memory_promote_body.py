from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryPromoteBody")


@_attrs_define
class SessionMemoryPromoteBody:
    """
    Attributes:
        fact_ids (list[str]): fact_id values from this thread's session memory.
    """

    fact_ids: list[str]

    def to_dict(self) -> dict[str, Any]:
        fact_ids = self.fact_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_ids": fact_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fact_ids = cast(list[str], d.pop("fact_ids"))

        session_memory_promote_body = cls(
            fact_ids=fact_ids,
        )

        return session_memory_promote_body

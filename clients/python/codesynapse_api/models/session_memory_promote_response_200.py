from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryPromoteResponse200")


@_attrs_define
class SessionMemoryPromoteResponse200:
    """
    Attributes:
        promoted (list[str]):
    """

    promoted: list[str]

    def to_dict(self) -> dict[str, Any]:
        promoted = self.promoted

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "promoted": promoted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        promoted = cast(list[str], d.pop("promoted"))

        session_memory_promote_response_200 = cls(
            promoted=promoted,
        )

        return session_memory_promote_response_200

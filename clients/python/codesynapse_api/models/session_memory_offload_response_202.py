from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryOffloadResponse202")


@_attrs_define
class SessionMemoryOffloadResponse202:
    """
    Attributes:
        accepted (int):
    """

    accepted: int

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted": accepted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        accepted = d.pop("accepted")

        session_memory_offload_response_202 = cls(
            accepted=accepted,
        )

        return session_memory_offload_response_202

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
        offload_id (str):
    """

    accepted: int
    offload_id: str

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        offload_id = self.offload_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accepted": accepted,
                "offload_id": offload_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        accepted = d.pop("accepted")

        offload_id = d.pop("offload_id")

        session_memory_offload_response_202 = cls(
            accepted=accepted,
            offload_id=offload_id,
        )

        return session_memory_offload_response_202

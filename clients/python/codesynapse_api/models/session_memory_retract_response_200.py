from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryRetractResponse200")


@_attrs_define
class SessionMemoryRetractResponse200:
    """
    Attributes:
        fact_id (str):
        valid_to (str):
        revision (int):
    """

    fact_id: str
    valid_to: str
    revision: int

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        valid_to = self.valid_to

        revision = self.revision

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_id": fact_id,
                "valid_to": valid_to,
                "revision": revision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        valid_to = d.pop("valid_to")

        revision = d.pop("revision")

        session_memory_retract_response_200 = cls(
            fact_id=fact_id,
            valid_to=valid_to,
            revision=revision,
        )

        return session_memory_retract_response_200

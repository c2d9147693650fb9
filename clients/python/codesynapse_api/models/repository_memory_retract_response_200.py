from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="RepositoryMemoryRetractResponse200")


@_attrs_define
class RepositoryMemoryRetractResponse200:
    """
    Attributes:
        fact_id (str):
        valid_to (str):
    """

    fact_id: str
    valid_to: str

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        valid_to = self.valid_to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_id": fact_id,
                "valid_to": valid_to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        valid_to = d.pop("valid_to")

        repository_memory_retract_response_200 = cls(
            fact_id=fact_id,
            valid_to=valid_to,
        )

        return repository_memory_retract_response_200

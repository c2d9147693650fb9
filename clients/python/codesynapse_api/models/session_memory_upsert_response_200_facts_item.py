from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryUpsertResponse200FactsItem")


@_attrs_define
class SessionMemoryUpsertResponse200FactsItem:
    """
    Attributes:
        fact_id (str):
        subject_id (str):
        predicate (str):
        object_id (str):
    """

    fact_id: str
    subject_id: str
    predicate: str
    object_id: str

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        subject_id = self.subject_id

        predicate = self.predicate

        object_id = self.object_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_id": fact_id,
                "subject_id": subject_id,
                "predicate": predicate,
                "object_id": object_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        subject_id = d.pop("subject_id")

        predicate = d.pop("predicate")

        object_id = d.pop("object_id")

        session_memory_upsert_response_200_facts_item = cls(
            fact_id=fact_id,
            subject_id=subject_id,
            predicate=predicate,
            object_id=object_id,
        )

        return session_memory_upsert_response_200_facts_item

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.session_memory_upsert_response_200_facts_item import (
        SessionMemoryUpsertResponse200FactsItem,
    )


T = TypeVar("T", bound="SessionMemoryUpsertResponse200")


@_attrs_define
class SessionMemoryUpsertResponse200:
    """
    Attributes:
        facts (list[SessionMemoryUpsertResponse200FactsItem]):
        superseded (list[str]):
        revision (int):
    """

    facts: list[SessionMemoryUpsertResponse200FactsItem]
    superseded: list[str]
    revision: int

    def to_dict(self) -> dict[str, Any]:
        facts = []
        for facts_item_data in self.facts:
            facts_item = facts_item_data.to_dict()
            facts.append(facts_item)

        superseded = self.superseded

        revision = self.revision

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "facts": facts,
                "superseded": superseded,
                "revision": revision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_memory_upsert_response_200_facts_item import (
            SessionMemoryUpsertResponse200FactsItem,
        )

        d = dict(src_dict)
        facts = []
        _facts = d.pop("facts")
        for facts_item_data in _facts:
            facts_item = SessionMemoryUpsertResponse200FactsItem.from_dict(
                facts_item_data
            )

            facts.append(facts_item)

        superseded = cast(list[str], d.pop("superseded"))

        revision = d.pop("revision")

        session_memory_upsert_response_200 = cls(
            facts=facts,
            superseded=superseded,
            revision=revision,
        )

        return session_memory_upsert_response_200

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.repository_memory_upsert_response_200_facts_item import (
        RepositoryMemoryUpsertResponse200FactsItem,
    )


T = TypeVar("T", bound="RepositoryMemoryUpsertResponse200")


@_attrs_define
class RepositoryMemoryUpsertResponse200:
    """
    Attributes:
        facts (list[RepositoryMemoryUpsertResponse200FactsItem]):
        superseded (list[str]):
    """

    facts: list[RepositoryMemoryUpsertResponse200FactsItem]
    superseded: list[str]

    def to_dict(self) -> dict[str, Any]:
        facts = []
        for facts_item_data in self.facts:
            facts_item = facts_item_data.to_dict()
            facts.append(facts_item)

        superseded = self.superseded

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "facts": facts,
                "superseded": superseded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.repository_memory_upsert_response_200_facts_item import (
            RepositoryMemoryUpsertResponse200FactsItem,
        )

        d = dict(src_dict)
        facts = []
        _facts = d.pop("facts")
        for facts_item_data in _facts:
            facts_item = RepositoryMemoryUpsertResponse200FactsItem.from_dict(
                facts_item_data
            )

            facts.append(facts_item)

        superseded = cast(list[str], d.pop("superseded"))

        repository_memory_upsert_response_200 = cls(
            facts=facts,
            superseded=superseded,
        )

        return repository_memory_upsert_response_200

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.session_memory_read_response_200_entities_item import (
        SessionMemoryReadResponse200EntitiesItem,
    )
    from ..models.session_memory_read_response_200_extraction import (
        SessionMemoryReadResponse200Extraction,
    )
    from ..models.session_memory_read_response_200_facts_item import (
        SessionMemoryReadResponse200FactsItem,
    )


T = TypeVar("T", bound="SessionMemoryReadResponse200")


@_attrs_define
class SessionMemoryReadResponse200:
    """
    Attributes:
        entities (list[SessionMemoryReadResponse200EntitiesItem]):
        facts (list[SessionMemoryReadResponse200FactsItem]):
        revision (int):
        extraction (SessionMemoryReadResponse200Extraction):
    """

    entities: list[SessionMemoryReadResponse200EntitiesItem]
    facts: list[SessionMemoryReadResponse200FactsItem]
    revision: int
    extraction: SessionMemoryReadResponse200Extraction

    def to_dict(self) -> dict[str, Any]:
        entities = []
        for entities_item_data in self.entities:
            entities_item = entities_item_data.to_dict()
            entities.append(entities_item)

        facts = []
        for facts_item_data in self.facts:
            facts_item = facts_item_data.to_dict()
            facts.append(facts_item)

        revision = self.revision

        extraction = self.extraction.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "entities": entities,
                "facts": facts,
                "revision": revision,
                "extraction": extraction,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_memory_read_response_200_entities_item import (
            SessionMemoryReadResponse200EntitiesItem,
        )
        from ..models.session_memory_read_response_200_extraction import (
            SessionMemoryReadResponse200Extraction,
        )
        from ..models.session_memory_read_response_200_facts_item import (
            SessionMemoryReadResponse200FactsItem,
        )

        d = dict(src_dict)
        entities = []
        _entities = d.pop("entities")
        for entities_item_data in _entities:
            entities_item = SessionMemoryReadResponse200EntitiesItem.from_dict(
                entities_item_data
            )

            entities.append(entities_item)

        facts = []
        _facts = d.pop("facts")
        for facts_item_data in _facts:
            facts_item = SessionMemoryReadResponse200FactsItem.from_dict(
                facts_item_data
            )

            facts.append(facts_item)

        revision = d.pop("revision")

        extraction = SessionMemoryReadResponse200Extraction.from_dict(
            d.pop("extraction")
        )

        session_memory_read_response_200 = cls(
            entities=entities,
            facts=facts,
            revision=revision,
            extraction=extraction,
        )

        return session_memory_read_response_200

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryImportResponse200")


@_attrs_define
class SessionMemoryImportResponse200:
    """
    Attributes:
        entities (int):
        facts (int):
        history (int):
        revision (int):
    """

    entities: int
    facts: int
    history: int
    revision: int

    def to_dict(self) -> dict[str, Any]:
        entities = self.entities

        facts = self.facts

        history = self.history

        revision = self.revision

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "entities": entities,
                "facts": facts,
                "history": history,
                "revision": revision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entities = d.pop("entities")

        facts = d.pop("facts")

        history = d.pop("history")

        revision = d.pop("revision")

        session_memory_import_response_200 = cls(
            entities=entities,
            facts=facts,
            history=history,
            revision=revision,
        )

        return session_memory_import_response_200

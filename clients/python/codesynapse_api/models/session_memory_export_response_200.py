from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryExportResponse200")


@_attrs_define
class SessionMemoryExportResponse200:
    """
    Attributes:
        format_ (str):
        jsonl (str):
        entities (int):
        facts (int):
        history (int):
    """

    format_: str
    jsonl: str
    entities: int
    facts: int
    history: int

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_

        jsonl = self.jsonl

        entities = self.entities

        facts = self.facts

        history = self.history

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
                "jsonl": jsonl,
                "entities": entities,
                "facts": facts,
                "history": history,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        format_ = d.pop("format")

        jsonl = d.pop("jsonl")

        entities = d.pop("entities")

        facts = d.pop("facts")

        history = d.pop("history")

        session_memory_export_response_200 = cls(
            format_=format_,
            jsonl=jsonl,
            entities=entities,
            facts=facts,
            history=history,
        )

        return session_memory_export_response_200

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="RepositoryMemoryExportResponse200")


@_attrs_define
class RepositoryMemoryExportResponse200:
    """
    Attributes:
        format_ (str):
        jsonl (str):
        nodes (int):
        facts (int):
        history (int):
    """

    format_: str
    jsonl: str
    nodes: int
    facts: int
    history: int

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_

        jsonl = self.jsonl

        nodes = self.nodes

        facts = self.facts

        history = self.history

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
                "jsonl": jsonl,
                "nodes": nodes,
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

        nodes = d.pop("nodes")

        facts = d.pop("facts")

        history = d.pop("history")

        repository_memory_export_response_200 = cls(
            format_=format_,
            jsonl=jsonl,
            nodes=nodes,
            facts=facts,
            history=history,
        )

        return repository_memory_export_response_200

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="RepositoryMemoryImportResponse200")


@_attrs_define
class RepositoryMemoryImportResponse200:
    """
    Attributes:
        nodes (int):
        facts (int):
        history (int):
    """

    nodes: int
    facts: int
    history: int

    def to_dict(self) -> dict[str, Any]:
        nodes = self.nodes

        facts = self.facts

        history = self.history

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "nodes": nodes,
                "facts": facts,
                "history": history,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        nodes = d.pop("nodes")

        facts = d.pop("facts")

        history = d.pop("history")

        repository_memory_import_response_200 = cls(
            nodes=nodes,
            facts=facts,
            history=history,
        )

        return repository_memory_import_response_200

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="RepositoryMemoryImportBody")


@_attrs_define
class RepositoryMemoryImportBody:
    """
    Attributes:
        jsonl (str): The export's JSON Lines text (at most 1048576 characters).
    """

    jsonl: str

    def to_dict(self) -> dict[str, Any]:
        jsonl = self.jsonl

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jsonl": jsonl,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        jsonl = d.pop("jsonl")

        repository_memory_import_body = cls(
            jsonl=jsonl,
        )

        return repository_memory_import_body

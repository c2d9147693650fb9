from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="RepositoryMemoryHistoryResponse200VersionsItemSubject")


@_attrs_define
class RepositoryMemoryHistoryResponse200VersionsItemSubject:
    """
    Attributes:
        id (str):
        name (str):
        type_ (str):
        aliases (list[str] | Unset):
    """

    id: str
    name: str
    type_: str
    aliases: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        type_ = self.type_

        aliases: list[str] | Unset = UNSET
        if not isinstance(self.aliases, Unset):
            aliases = self.aliases

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "type": type_,
            }
        )
        if aliases is not UNSET:
            field_dict["aliases"] = aliases

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        type_ = d.pop("type")

        aliases = cast(list[str], d.pop("aliases", UNSET))

        repository_memory_history_response_200_versions_item_subject = cls(
            id=id,
            name=name,
            type_=type_,
            aliases=aliases,
        )

        return repository_memory_history_response_200_versions_item_subject

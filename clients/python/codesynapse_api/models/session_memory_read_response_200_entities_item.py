from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SessionMemoryReadResponse200EntitiesItem")


@_attrs_define
class SessionMemoryReadResponse200EntitiesItem:
    """
    Attributes:
        id (str):
        name (str):
        type_ (str):
        aliases (list[str]):
    """

    id: str
    name: str
    type_: str
    aliases: list[str]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        type_ = self.type_

        aliases = self.aliases

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "type": type_,
                "aliases": aliases,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        type_ = d.pop("type")

        aliases = cast(list[str], d.pop("aliases"))

        session_memory_read_response_200_entities_item = cls(
            id=id,
            name=name,
            type_=type_,
            aliases=aliases,
        )

        return session_memory_read_response_200_entities_item

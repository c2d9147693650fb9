from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="RepositoryMemorySearchNodesResponse200NodesItem")


@_attrs_define
class RepositoryMemorySearchNodesResponse200NodesItem:
    """
    Attributes:
        id (str):
        label (str):
        name (str):
        type_ (str):
        origin_session_id (None | str):
    """

    id: str
    label: str
    name: str
    type_: str
    origin_session_id: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        label = self.label

        name = self.name

        type_ = self.type_

        origin_session_id: None | str
        origin_session_id = self.origin_session_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "label": label,
                "name": name,
                "type": type_,
                "origin_session_id": origin_session_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        label = d.pop("label")

        name = d.pop("name")

        type_ = d.pop("type")

        def _parse_origin_session_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        origin_session_id = _parse_origin_session_id(d.pop("origin_session_id"))

        repository_memory_search_nodes_response_200_nodes_item = cls(
            id=id,
            label=label,
            name=name,
            type_=type_,
            origin_session_id=origin_session_id,
        )

        return repository_memory_search_nodes_response_200_nodes_item

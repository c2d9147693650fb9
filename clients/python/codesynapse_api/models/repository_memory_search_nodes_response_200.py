from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.repository_memory_search_nodes_response_200_nodes_item import (
        RepositoryMemorySearchNodesResponse200NodesItem,
    )


T = TypeVar("T", bound="RepositoryMemorySearchNodesResponse200")


@_attrs_define
class RepositoryMemorySearchNodesResponse200:
    """
    Attributes:
        nodes (list[RepositoryMemorySearchNodesResponse200NodesItem]):
    """

    nodes: list[RepositoryMemorySearchNodesResponse200NodesItem]

    def to_dict(self) -> dict[str, Any]:
        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "nodes": nodes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.repository_memory_search_nodes_response_200_nodes_item import (
            RepositoryMemorySearchNodesResponse200NodesItem,
        )

        d = dict(src_dict)
        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = RepositoryMemorySearchNodesResponse200NodesItem.from_dict(
                nodes_item_data
            )

            nodes.append(nodes_item)

        repository_memory_search_nodes_response_200 = cls(
            nodes=nodes,
        )

        return repository_memory_search_nodes_response_200

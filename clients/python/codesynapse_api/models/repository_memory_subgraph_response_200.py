from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.repository_memory_subgraph_response_200_edges_item import (
        RepositoryMemorySubgraphResponse200EdgesItem,
    )
    from ..models.repository_memory_subgraph_response_200_nodes_item import (
        RepositoryMemorySubgraphResponse200NodesItem,
    )


T = TypeVar("T", bound="RepositoryMemorySubgraphResponse200")


@_attrs_define
class RepositoryMemorySubgraphResponse200:
    """
    Attributes:
        nodes (list[RepositoryMemorySubgraphResponse200NodesItem]):
        edges (list[RepositoryMemorySubgraphResponse200EdgesItem]):
    """

    nodes: list[RepositoryMemorySubgraphResponse200NodesItem]
    edges: list[RepositoryMemorySubgraphResponse200EdgesItem]

    def to_dict(self) -> dict[str, Any]:
        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        edges = []
        for edges_item_data in self.edges:
            edges_item = edges_item_data.to_dict()
            edges.append(edges_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "nodes": nodes,
                "edges": edges,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.repository_memory_subgraph_response_200_edges_item import (
            RepositoryMemorySubgraphResponse200EdgesItem,
        )
        from ..models.repository_memory_subgraph_response_200_nodes_item import (
            RepositoryMemorySubgraphResponse200NodesItem,
        )

        d = dict(src_dict)
        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = RepositoryMemorySubgraphResponse200NodesItem.from_dict(
                nodes_item_data
            )

            nodes.append(nodes_item)

        edges = []
        _edges = d.pop("edges")
        for edges_item_data in _edges:
            edges_item = RepositoryMemorySubgraphResponse200EdgesItem.from_dict(
                edges_item_data
            )

            edges.append(edges_item)

        repository_memory_subgraph_response_200 = cls(
            nodes=nodes,
            edges=edges,
        )

        return repository_memory_subgraph_response_200

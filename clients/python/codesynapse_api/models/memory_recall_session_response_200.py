from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.memory_recall_session_response_200_results_item import (
        MemoryRecallSessionResponse200ResultsItem,
    )


T = TypeVar("T", bound="MemoryRecallSessionResponse200")


@_attrs_define
class MemoryRecallSessionResponse200:
    """
    Attributes:
        results (list[MemoryRecallSessionResponse200ResultsItem]):
    """

    results: list[MemoryRecallSessionResponse200ResultsItem]

    def to_dict(self) -> dict[str, Any]:
        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.memory_recall_session_response_200_results_item import (
            MemoryRecallSessionResponse200ResultsItem,
        )

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = MemoryRecallSessionResponse200ResultsItem.from_dict(
                results_item_data
            )

            results.append(results_item)

        memory_recall_session_response_200 = cls(
            results=results,
        )

        return memory_recall_session_response_200

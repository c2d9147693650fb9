from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.repository_memory_history_response_200_versions_item import (
        RepositoryMemoryHistoryResponse200VersionsItem,
    )


T = TypeVar("T", bound="RepositoryMemoryHistoryResponse200")


@_attrs_define
class RepositoryMemoryHistoryResponse200:
    """
    Attributes:
        fact_id (str):
        versions (list[RepositoryMemoryHistoryResponse200VersionsItem]):
    """

    fact_id: str
    versions: list[RepositoryMemoryHistoryResponse200VersionsItem]

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        versions = []
        for versions_item_data in self.versions:
            versions_item = versions_item_data.to_dict()
            versions.append(versions_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_id": fact_id,
                "versions": versions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.repository_memory_history_response_200_versions_item import (
            RepositoryMemoryHistoryResponse200VersionsItem,
        )

        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        versions = []
        _versions = d.pop("versions")
        for versions_item_data in _versions:
            versions_item = RepositoryMemoryHistoryResponse200VersionsItem.from_dict(
                versions_item_data
            )

            versions.append(versions_item)

        repository_memory_history_response_200 = cls(
            fact_id=fact_id,
            versions=versions,
        )

        return repository_memory_history_response_200

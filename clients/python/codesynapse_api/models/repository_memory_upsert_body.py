from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.repository_memory_upsert_body_triples_item import (
        RepositoryMemoryUpsertBodyTriplesItem,
    )


T = TypeVar("T", bound="RepositoryMemoryUpsertBody")


@_attrs_define
class RepositoryMemoryUpsertBody:
    """
    Attributes:
        triples (list[RepositoryMemoryUpsertBodyTriplesItem]): Triples like {"subject": "AuthService", "predicate":
            "depends_on", "object": "TokenStore", "subject_type": "class", "object_type": "class"}. Predicates match
            ^[a-z][a-z0-9_]{0,63}$; names are 1-256 characters; types are optional.
        source (str | Unset): Where the facts come from (a file, a turn); stored redacted.
    """

    triples: list[RepositoryMemoryUpsertBodyTriplesItem]
    source: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        triples = []
        for triples_item_data in self.triples:
            triples_item = triples_item_data.to_dict()
            triples.append(triples_item)

        source = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "triples": triples,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.repository_memory_upsert_body_triples_item import (
            RepositoryMemoryUpsertBodyTriplesItem,
        )

        d = dict(src_dict)
        triples = []
        _triples = d.pop("triples")
        for triples_item_data in _triples:
            triples_item = RepositoryMemoryUpsertBodyTriplesItem.from_dict(
                triples_item_data
            )

            triples.append(triples_item)

        source = d.pop("source", UNSET)

        repository_memory_upsert_body = cls(
            triples=triples,
            source=source,
        )

        return repository_memory_upsert_body
